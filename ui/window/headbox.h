#pragma once
// The window's head list ("0 of 3", ..., "average of 3"): each head's item
// carries its number, the average's item none.

#include <QComboBox>
#include <QVariant>
#include <optional>

// The head item `index` stands for; nullopt for the average (and no item).
inline std::optional<int> headOfBoxItem(const QComboBox *box, int index)
{
    const QVariant data = box->itemData(index);
    return data.isValid() ? std::optional<int>(data.toInt()) : std::nullopt;
}

// The item that shows `head` (nullopt: the average), or -1 when there is none.
inline int boxItemOfHead(const QComboBox *box, std::optional<int> head)
{
    for (int i = 0; i < box->count(); ++i)
        if (headOfBoxItem(box, i) == head)
            return i;
    return -1;
}
