"""The command palette on the game screen: the legal actions of the moment."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

# The most values of an amount the palette lists: the lowest, and the highest.
MAX_AMOUNTS = 40


class GameCommands(Provider):
    def _commands(self) -> list[tuple[str, Any, str]]:
        screen: Any = self.screen
        session = screen.session
        prompt = session.prompt()
        out: list[tuple[str, Any, str]] = []
        hidden = getattr(screen, "hidden", False)
        if prompt is not None and not session.is_bot(prompt.seat) and (
                not hidden or screen.viewer == prompt.seat):
            state, names = screen.shown_state(), screen.names
            for action in prompt.choices:
                out.append((screen.ui.describe(state, action, names), partial(screen.submit, action),
                            prompt.step))
            if prompt.amount is not None:
                for v in prompt.amount.sample(MAX_AMOUNTS):
                    raw = screen.ui.amount_action(prompt, v)
                    action = session.ruleset.parse_action(raw)
                    out.append((screen.ui.describe(state, action, names), partial(screen.submit, raw),
                                prompt.step))
        out.append(("Undo: take back the last action", screen.action_undo, "u"))
        out.append(("Save the game now", screen.action_save, "s"))
        out.append(("Rules help", screen.action_help, "?"))
        if not hidden:  # a game with secrets always has them
            label = "off" if screen.handoff else "on"
            out.append((f"Turn hand-off screens {label}", partial(screen.set_handoff, not screen.handoff),
                        "Hand-off screens hide the board between two human players"))
        return out

    async def discover(self) -> Hits:
        for text, command, help_text in self._commands():
            yield DiscoveryHit(text, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, command, help_text in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), command, text=text, help=help_text)
