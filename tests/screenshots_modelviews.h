#pragma once
// make_screenshots' pictures of the views today's models need
// (screenshots_modelviews.cpp); the Llama-family grid needs a model folder
// in ATTN_SCREENSHOT_LLAMA (scripts/random_family_model.py smollm2-135m).

#include <QDir>

void shootModelViews(const QDir &out);
// Examples › Trained Model: Pronouns, Llama-Style (screenshots_trainedllama.cpp).
void shootTrainedLlama(const QDir &out);
