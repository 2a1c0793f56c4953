"""Risk Analyzer in the browser: ``make run`` (or ``streamlit run app.py``); the app is :mod:`analyzer.webapp`."""

from analyzer.webapp.main import main

main()
