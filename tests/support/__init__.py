"""Helpers that several test files share: the recorder's scripted game, a live game with a card left face
down, the published battle table and a roll-by-roll battle sampler, a throwaway PostgreSQL server."""
