"""The Footer, rebuilt only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its keys again whenever the bindings
are refreshed: after every action in a game and on every change of focus. That
relayout (and the styling of a dozen new widgets) is most of the work an action
causes on screen. ``KeyFooter`` looks first: the same keys with the same
descriptions keep their widgets, and a key that only became usable or unusable
is updated where it is. It also shows its keys in the screen's first frame,
rather than one refresh later.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    def __init__(self, *, relabel: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Other keys than before relabel the key widgets there (see _relabel) rather than
        # mount them all again. Only on the game screen, where every action changes the
        # keys: the recording viewer's narration panel relies on the relayout a rebuilt
        # footer brings (a step back then showed an empty narration).
        self.relabel = relabel
        # The screen's own bindings are known before anything has focus, so the
        # keys can be drawn with the rest of the screen.
        self.set_reactive(Footer._bindings_ready, True)
        self._shown: tuple[Any, ...] | None = None

    def _keys(self) -> tuple[Any, ...]:
        """What ``compose`` would show: (layout part, enabled part) per key, in order."""
        active = self.screen.active_bindings
        keys = []
        actions: set[str] = set()
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in actions:  # one key per action, as drawn
                actions.add(binding.action)
                keys.append(((binding.key, binding.action, binding.description,
                              self.app.get_key_display(binding), binding.group),
                             (enabled, tooltip)))
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            entry = active.get(self.app.COMMAND_PALETTE_BINDING)
            if entry is not None:
                _, binding, enabled, tooltip = entry
                keys.append((("palette", binding.key, binding.description), (enabled, tooltip)))
        return tuple(keys)

    def compose(self) -> Any:
        self._shown = self._keys() if self._bindings_ready else None
        yield from super().compose()

    def bindings_changed(self, screen: Any) -> None:
        if not (self.is_attached and screen is self.screen and screen.app.app_focus):
            super().bindings_changed(screen)
            return
        keys = self._keys()
        if self._shown is not None and keys == self._shown:
            return
        if self._shown is not None and (self._update_in_place(keys)
                                        or (self.relabel and self._relabel(keys))):
            self._shown = keys
            return
        super().bindings_changed(screen)

    def _update_in_place(self, keys: tuple[Any, ...]) -> bool:
        """Enable or disable keys without rebuilding; False when more than that changed."""
        assert self._shown is not None
        if [layout for layout, _ in keys] != [layout for layout, _ in self._shown]:
            return False
        if any(layout[-1] is not None for layout, _ in keys if layout[0] != "palette"):
            return False  # grouped keys: leave them to compose
        widgets = list(self.query_children(FooterKey))
        if len(widgets) != len(keys):
            return False
        for widget, (layout, _) in zip(widgets, keys, strict=True):
            key = layout[1] if layout[0] == "palette" else layout[0]
            if widget.key != key:
                return False
        for widget, (layout, (enabled, tooltip)) in zip(widgets, keys, strict=True):
            if widget._disabled != (not enabled):
                widget._disabled = not enabled
                widget.set_class(not enabled, "-disabled")
            if layout[0] != "palette":
                widget.tooltip = tooltip or None
        return True

    def _relabel(self, keys: tuple[Any, ...]) -> bool:
        """Other keys than before: the key widgets there are relabelled, the few more
        mounted or the few fewer removed, rather than all of them mounted again (and
        styled anew, which is most of the time an action takes on screen). False
        when that cannot be done (grouped keys)."""
        assert self._shown is not None
        if any(layout[0] != "palette" and layout[-1] is not None for layout, _ in keys):
            return False
        widgets = list(self.query_children(FooterKey))
        palette = [w for w in widgets if w.has_class("-command-palette")]
        plain = [w for w in widgets if not w.has_class("-command-palette")]
        old_palette = [k for k in self._shown if k[0][0] == "palette"]
        new_palette = [k for k in keys if k[0][0] == "palette"]
        if old_palette != new_palette or len(palette) != len(old_palette):
            return False
        wanted = [k for k in keys if k[0][0] != "palette"]
        if len(plain) != len([k for k in self._shown if k[0][0] != "palette"]):
            return False
        for widget, ((key, action, description, key_display, _), (enabled, tooltip)) in zip(
                plain, wanted, strict=False):
            if (widget.key, widget.action, widget.description, widget.key_display) != (
                    key, action, description, key_display):
                widget.key, widget.action = key, action
                widget.description, widget.key_display = description, key_display
                widget.refresh(layout=True)
            if widget._disabled != (not enabled):
                widget._disabled = not enabled
                widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
        for widget in plain[len(wanted):]:
            widget.remove()
        more = [
            FooterKey(key, key_display, description, action, disabled=not enabled,
                      tooltip=tooltip).data_bind(compact=Footer.compact)
            for (key, action, description, key_display, _), (enabled, tooltip)
            in wanted[len(plain):]
        ]
        if more:
            if palette:
                self.mount_all(more, before=palette[0])
            else:
                self.mount_all(more)
        return True
