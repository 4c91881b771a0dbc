#include "pipelineview.h"
