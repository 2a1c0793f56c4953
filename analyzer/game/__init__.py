"""The pure rules: board, rule options, dice, cards, missions, actions and the game state machine."""
