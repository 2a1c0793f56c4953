"""The full-game simulator: the game loop, whole games in compiled code, tables, backends and evaluation."""
