#pragma once
// make_screenshots' pictures of the views today's models need
// (screenshots_modelviews.cpp); the Llama-family grid needs a model folder
// in ATTN_SCREENSHOT_LLAMA (scripts/random_family_model.py smollm2-135m).

#include <QDir>

class MainWindow;

// The window at 1280 x 800, saved to `path` (its path printed, or why not).
void shoot(MainWindow &window, const QString &path);

void shootModelViews(const QDir &out);
// Examples › Trained Model: Pronouns, Llama-Style (screenshots_trainedllama.cpp).
void shootTrainedLlama(const QDir &out);
