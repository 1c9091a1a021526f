/* The version every output and stored run carries: the release plus the model id, a hash
 * of the sources that decide a run's results (cmake/model_id.cmake), so results from other
 * model code are told apart. */
#ifndef MMSIM_VERSION_H
#define MMSIM_VERSION_H

#include "model_id.h"

#define MMSIM_VERSION MMSIM_RELEASE "+" MMSIM_MODEL_ID

#endif
