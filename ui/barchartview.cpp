#include "barchartview.h"
