#include "barchartpainter.h"
