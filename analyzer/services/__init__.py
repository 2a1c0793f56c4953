"""What the app's views stand on, with no Streamlit in it: a view draws and reads widgets, and hands the rest here.

* :mod:`~analyzer.services.entries`: the Record view's entry forms (their fields, bounds and choices,
  taken from the rules and the position), declared once for drawing and for reading back;
* :mod:`~analyzer.services.game_list`: the start page's stored games, found by a search, a page at a time;
* :mod:`~analyzer.services.saving`: keeping a game in the store against the version it was made on;
* :mod:`~analyzer.services.valuation`: the win chances shown beside a live game, turn by turn.

Each is tested directly (``tests/services/``); the views are tested with Streamlit's AppTest over them.
"""
