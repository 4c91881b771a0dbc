#include "tokenchips.h"
