// The grid's thumbnails of a typed word: the lines over the rows the text
// before had are copied from its thumbnails, and the result is, pixel for
// pixel, what the whole thumbnails of the longer text are. The blocks a
// long text pools into hold the same tokens whatever follows them.

#include "gridthumbnails.h"

#include <QTest>
#include <random>

namespace {

// Causal attention weights over n tokens (each row sums to 1 over the keys
// it sees, inside `window` when positive), row r the same whatever n is.
attn::RowMatrix<float> causalWeights(int n, int window, unsigned seed)
{
    attn::RowMatrix<float> w = attn::RowMatrix<float>::Zero(n, n);
    for (int r = 0; r < n; ++r) {
        std::mt19937 random(seed + unsigned(r)); // row r's numbers depend on r only
        std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
        for (int c = window > 0 ? std::max(0, r - window + 1) : 0; c <= r; ++c)
            w(r, c) = uniform(random) * (c % 7 == 0 ? 8.0f : 1.0f);
        w.row(r) /= w.row(r).sum();
    }
    return w;
}

attn::LayerTrace layerOf(int n, int heads, int window)
{
    attn::LayerTrace layer;
    for (int h = 0; h < heads; ++h)
        layer.weights.push_back(causalWeights(n, window, 100u * unsigned(h + 1)));
    return layer;
}

} // namespace

class TestGridThumbnails : public QObject
{
    Q_OBJECT

private slots:
    // Block sides and line counts worked out by hand: ceil(n / 128) tokens a
    // block, ceil(n / block) lines.
    void blocksHoldTheSameTokensWhateverFollows()
    {
        const auto blocks = [](int n) {
            const ThumbnailBlocks b = thumbnailBlocks(n, 128);
            return std::pair<int, int>(b.block, b.lines);
        };
        QCOMPARE(blocks(0), std::make_pair(1, 0));
        QCOMPARE(blocks(7), std::make_pair(1, 7));
        QCOMPARE(blocks(128), std::make_pair(1, 128));
        QCOMPARE(blocks(129), std::make_pair(2, 65));
        QCOMPARE(blocks(255), std::make_pair(2, 128));
        QCOMPARE(blocks(256), std::make_pair(2, 128));
        QCOMPARE(blocks(257), std::make_pair(3, 86));
        QCOMPARE(blocks(2000), std::make_pair(16, 125));
        // The lines wholly above the reused rows, when both texts pool alike.
        QCOMPARE(reusableThumbnailLines(93, 90, 90, 128), 90);
        QCOMPARE(reusableThumbnailLines(250, 247, 247, 128), 123); // line 123 held row 246 only
        QCOMPARE(reusableThumbnailLines(259, 256, 256, 128), 0);   // blocks of 3 now, of 2 before
        QCOMPARE(reusableThumbnailLines(256, 255, 200, 128), 100); // a word changed at token 200
        QCOMPARE(reusableThumbnailLines(250, 255, 250, 128), 125); // a word taken away
        QCOMPARE(reusableThumbnailLines(250, 0, 0, 128), 0);
    }

    // A word typed at the end of texts short enough for a pixel a weight and
    // long enough for blocks: with and without a sliding window and the first
    // token set aside, the thumbnails made from the earlier ones are the
    // thumbnails made whole, and so are their colours.
    void typedThumbnailsAreTheWholeOnes_data()
    {
        QTest::addColumn<int>("before");
        QTest::addColumn<int>("after");
        QTest::newRow("pixel a weight") << 90 << 93;
        QTest::newRow("blocks of 2") << 247 << 250;
        QTest::newRow("blocks of 3, changed inside a block") << 300 << 302;
    }
    void typedThumbnailsAreTheWholeOnes()
    {
        QFETCH(int, before);
        QFETCH(int, after);
        const QColor masked(200, 10, 10);
        for (const int window : {0, 40}) {
            for (const bool aside : {false, true}) {
                const attn::LayerTrace earlier = layerOf(before, 3, window), now = layerOf(after, 3, window);
                const std::vector<QImage> earlierLevels =
                    modelGridLayerLevels(earlier, true, kModelGridMaxSide, aside, window);
                const int lines = reusableThumbnailLines(after, before, before, kModelGridMaxSide);
                QVERIFY(lines > 0);
                const std::vector<QImage> whole = modelGridLayerLevels(now, true, kModelGridMaxSide, aside, window);
                const std::vector<QImage> typed = modelGridLayerLevels(now, true, kModelGridMaxSide, aside, window,
                                                                       {&earlierLevels, lines});
                QCOMPARE(typed.size(), whole.size());
                for (std::size_t h = 0; h < whole.size(); ++h)
                    QVERIFY2(typed[h] == whole[h], qPrintable(QStringLiteral("window %1 aside %2 head %3")
                                                                  .arg(window).arg(aside).arg(h)));
                const std::vector<QImage> earlierTiles = colouredLayerTiles(earlierLevels, ColorMap::Magma, masked);
                const std::vector<QImage> tiles =
                    colouredLayerTiles(typed, ColorMap::Magma, masked, {&earlierTiles, lines});
                const std::vector<QImage> wholeTiles = colouredLayerTiles(whole, ColorMap::Magma, masked);
                for (std::size_t h = 0; h < whole.size(); ++h)
                    QVERIFY(tiles[h] == wholeTiles[h]);
            }
        }
    }

    // The earlier lines are taken as they are, not made again (that is the
    // point: a typed word reads only its new rows); and thumbnails that
    // cannot be the earlier text's (wider than the new ones, too few lines,
    // another format) are not used at all.
    void earlierLinesAreCopiedWhenTheyFit()
    {
        const attn::LayerTrace now = layerOf(250, 1, 0); // blocks of 2, 125 lines
        const std::vector<QImage> whole = modelGridLayerLevels(now, true, kModelGridMaxSide);
        QImage marked(124, 124, QImage::Format_Grayscale8);
        marked.fill(7);
        const std::vector<QImage> earlier{marked};
        const QImage copied = modelGridLayerLevels(now, true, kModelGridMaxSide, false, 0, {&earlier, 123}).front();
        QCOMPARE(copied.size(), QSize(125, 125));
        QCOMPARE(int(copied.constScanLine(0)[0]), 7);
        QCOMPARE(int(copied.constScanLine(122)[123]), 7);
        QCOMPARE(int(copied.constScanLine(122)[124]), kGridMasked); // a key the earlier text lacked
        QCOMPARE(copied.copy(0, 123, 125, 2), whole.front().copy(0, 123, 125, 2)); // the lines made
        for (const QImage &unfit : {QImage(126, 124, QImage::Format_Grayscale8), QImage(124, 100, QImage::Format_Grayscale8),
                                    QImage(124, 124, QImage::Format_RGB32)}) {
            QImage filled = unfit;
            filled.fill(7);
            const std::vector<QImage> bad{filled};
            QVERIFY(modelGridLayerLevels(now, true, kModelGridMaxSide, false, 0, {&bad, 123}).front() == whole.front());
        }
        // A trace without the causal mask shares no rows with a shorter text: nothing is copied.
        QVERIFY(modelGridLayerLevels(now, false, kModelGridMaxSide, false, 0, {&earlier, 123}).front()
                == modelGridLayerLevels(now, false, kModelGridMaxSide).front());
    }
};

QTEST_MAIN(TestGridThumbnails)
#include "tst_gridthumbnails.moc"
