#pragma once
// A user's text quoted inside a one-line message: the session reader, the
// tokenizers and the command line all show it the same way.

#include <QString>

namespace attn {

// At most 40 characters (then "…"), with line breaks and other control
// characters written out ("\n", "\u0007") so the message stays on one line.
QString textInMessage(const QString &text);

} // namespace attn
