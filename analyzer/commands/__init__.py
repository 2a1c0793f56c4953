"""The command line's subcommands, one module each (``odds``, ``simulate``, ``ladder``, ``review``, ...).

Each exposes ``register(subparsers)``, which adds its parser and sets its ``run(args)``;
:mod:`analyzer.cli` gathers them. A command reads its arguments, calls the package, and prints.
"""
