#include "heatmappainter.h"
