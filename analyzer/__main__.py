import sys

from analyzer.cli import run

if __name__ == "__main__":  # imported, not run, when pytest collects the package's doctests
    sys.exit(run())
