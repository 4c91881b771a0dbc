#include "heatmapview.h"
