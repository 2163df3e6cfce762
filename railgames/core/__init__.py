"""The game-agnostic kernel. Nothing under railgames.core imports Textual."""
