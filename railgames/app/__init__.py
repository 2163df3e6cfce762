"""The Textual app: launcher, setup, game, hand-off, help and game-over screens."""
