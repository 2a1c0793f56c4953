"""The documented limits on sizes, checked before any allocation.

Every way in (the CLI, the app, saved games, map files, the Python API) checks a
requested size against these numbers before it allocates, and a request past a
limit gets a :class:`ValueError` subclass that names the limit. They are far
above any real game: the classic game has 42 territories and a few hundred
armies on the largest stack.

>>> MAX_ARMIES
1000000
"""

#: Armies on one territory (a saved game, an edit, an attacker or a defender).
MAX_ARMIES = 1_000_000
#: Characters of user text kept in a message (a name, a bad value quoted back).
MAX_MESSAGE = 200
#: Characters of a player's name or other free text a user types.
MAX_NAME_LENGTH = 40
