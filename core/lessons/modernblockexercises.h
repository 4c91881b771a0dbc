#pragma once
// The exercises on today's attention block (internal to the exercises):
// what a typed answer to a rotary pair or a key/value count most likely
// came from, named without giving the answer.

#include "lessons/exercises.h"

namespace attn::detail {

// The hint for wrong numbers `typed` (as many as the exercise asks for), or
// the exercise's general hint when they match no known slip.
QString modernBlockMistake(const Exercise &exercise, const std::vector<double> &typed);

} // namespace attn::detail
