#include "optionspanel.h"
