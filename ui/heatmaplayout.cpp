#include "heatmaplayout.h"
