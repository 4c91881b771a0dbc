#include "formats/messagetext.h"

namespace attn {

QString textInMessage(const QString &text)
{
    QString out;
    for (const QChar c : text.left(40)) {
        if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return text.size() > 40 ? out + QStringLiteral("…") : out;
}

} // namespace attn
