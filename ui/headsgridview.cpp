#include "headsgridview.h"
