"""The launcher's buttons bring only the rules for their own kinds of button, and
look exactly as Textual's buttons of those kinds do, in every state."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import Button

from railgames.app.screens.launcher import LauncherButton
from tests.app.driving import run_async


class One(App[None]):
    """One button, alone in its app: Textual's or the launcher's."""

    def __init__(self, kind: type[Button], variant: Any, theme: str) -> None:
        super().__init__(ansi_color=theme == "ansi")
        self.kind, self.variant, self.theme_name = kind, variant, theme

    def compose(self) -> Any:
        yield self.kind("Label", id="button", variant=self.variant)

    def on_mount(self) -> None:
        if self.theme_name != "ansi":
            self.theme = self.theme_name


STATES = ["plain", "focus", "hover", "active", "disabled", "compact"]


async def styled(kind: type[Button], variant: str, theme: str, state: str) -> dict[str, Any]:
    """What CSS sets on a button of ``kind`` in ``state``, in an app of its own."""
    app = One(kind, variant, theme)
    async with app.run_test() as pilot:
        await pilot.pause()
        button = app.query_one("#button", Button)
        if state == "focus":
            button.focus()
        else:
            app.set_focus(None)
        if state == "hover":
            button.mouse_hover = True
        elif state == "active":
            button.add_class("-active")
        elif state == "disabled":
            button.disabled = True
        elif state == "compact":
            button.compact = True
        await pilot.pause()
        app.stylesheet.apply(button)
        assert kind is Button or "Button.DEFAULT_CSS" not in {
            where[1] for where in app.stylesheet.source}, "Textual's rules were not needed"
        return dict(button.styles.base.get_rules())


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "ansi"])
@pytest.mark.parametrize("variant", ["default", "primary"])
@pytest.mark.parametrize("state", STATES)
@run_async
async def test_a_launcher_button_is_styled_as_textuals_button(variant: str, theme: str,
                                                              state: str) -> None:
    theirs = await styled(Button, variant, theme, state)
    ours = await styled(LauncherButton, variant, theme, state)
    assert ours == theirs
    assert theirs  # a state that styles nothing would prove nothing


@run_async
async def test_textuals_rules_for_every_kind_of_button_are_not_parsed_for_the_launcher() -> None:
    class OnlyOurs(App[None]):
        def compose(self) -> Any:
            yield LauncherButton("Ours", variant="primary")

    app = OnlyOurs()
    async with app.run_test() as pilot:
        await pilot.pause()
        sources = {where[1] for where in app.stylesheet.source}
        assert "LauncherButton.DEFAULT_CSS" in sources
        assert "Button.DEFAULT_CSS" not in sources


def test_cards_worked_out_after_the_launcher_has_gone_are_dropped_quietly() -> None:
    """Cards are worked out in the background at a first start; over SSH the games'
    launcher may be left (a tour opened at once) before they come, which crashed the app."""
    from railgames.app.screens.launcher import LauncherScreen, launcher_cards

    screen = LauncherScreen()  # never shown, as one already taken down
    screen._cards_ready(launcher_cards())
    assert not screen.cards_pending and screen.games
