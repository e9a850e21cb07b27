"""A picker's list that says what each choice means: its name, and under it a muted
one-line description (persona and permission-mode pickers).

:func:`describe_items` installs the delegate on a ``QComboBox``'s popup; the
description of item ``i`` is its :data:`DESCRIPTION_ROLE` data (also set as its
tooltip and its accessible description, for screen readers).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QComboBox, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from openworker_qt.ui import design

__all__ = ["DESCRIPTION_ROLE", "DescribedItemDelegate", "describe_items", "set_description"]

DESCRIPTION_ROLE = Qt.ItemDataRole.UserRole + 41

_Index = QModelIndex | QPersistentModelIndex


class DescribedItemDelegate(QStyledItemDelegate):
    """Paints an item's name and, under it, its description in the muted colour."""

    PAD = design.SPACE["s"]

    def _description(self, index: _Index) -> str:
        return str(index.data(DESCRIPTION_ROLE) or "")

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        base = super().sizeHint(option, index)
        description = self._description(index)
        if not description:
            return base
        small = design.font("small", option.font)
        width = max(base.width(), QFontMetrics(small).horizontalAdvance(description)
                    + 3 * self.PAD)
        height = option.fontMetrics.height() + QFontMetrics(small).height() + 2 * self.PAD
        return QSize(width, max(base.height(), height))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        description = self._description(index)
        if not description:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        name = opt.text
        opt.text = ""
        widget = opt.widget
        style = widget.style() if isinstance(widget, QWidget) else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        c = design.colors(opt.palette)
        indent = 0 if opt.icon.isNull() else opt.decorationSize.width() + self.PAD
        rect = opt.rect.adjusted(self.PAD + indent, self.PAD // 2, -self.PAD, -self.PAD // 2)
        line = opt.fontMetrics.height()
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(opt.palette.color(opt.palette.ColorRole.HighlightedText) if selected
                       else opt.palette.color(opt.palette.ColorRole.Text))
        painter.drawText(QRect(rect.left(), rect.top(), rect.width(), line),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), name)
        small = design.font("small", opt.font)
        painter.setFont(small)
        painter.setPen(opt.palette.color(opt.palette.ColorRole.HighlightedText) if selected
                       else c.q("muted"))
        text = painter.fontMetrics().elidedText(description, Qt.TextElideMode.ElideRight,
                                                rect.width())
        painter.drawText(QRect(rect.left(), rect.top() + line, rect.width(),
                               rect.height() - line),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), text)
        painter.restore()


def set_description(combo: QComboBox, index: int, description: str) -> None:
    """Give item ``index`` its one-line description (shown under it, tooltip, screen readers)."""
    combo.setItemData(index, description, DESCRIPTION_ROLE)
    combo.setItemData(index, description, Qt.ItemDataRole.ToolTipRole)
    combo.setItemData(index, description, Qt.ItemDataRole.AccessibleDescriptionRole)


def describe_items(combo: QComboBox) -> None:
    """Show each item's description under its name in ``combo``'s popup."""
    delegate = DescribedItemDelegate(combo)
    combo.setItemDelegate(delegate)
    view = combo.view()
    if view is not None:
        view.setItemDelegate(delegate)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
