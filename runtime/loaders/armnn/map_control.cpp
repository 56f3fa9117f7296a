// Layer mapping, Merge, Switch, Rank, Shape, DetectionPostProcess, Fill, StandIn.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

void detection_post_process(LayerContext& c, const fb::DetectionPostProcessLayer* l) {
    const auto* d = descriptor_of(l);
    expect_io(c.n, 2, 4);
    const DetectionPostProcessAttrs a{d->maxDetections(),
                                      d->maxClassesPerDetection(),
                                      d->detectionsPerClass(),
                                      d->nmsScoreThreshold(),
                                      d->nmsIouThreshold(),
                                      d->numClasses(),
                                      d->useRegularNms(),
                                      d->scaleX(),
                                      d->scaleY(),
                                      d->scaleW(),
                                      d->scaleH()};
    c.n.inputs.push_back(add_constant(c.g, l->anchors(), c.n, "anchors"));
    set_op(c.n, OpKind::DetectionPostProcess, a);
}

void fill(LayerContext& c, const fb::FillDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::Fill, FillAttrs{d->value()});
}

// A StandIn declares its own operand counts.
void stand_in(LayerContext& c, const fb::StandInDescriptor* d) {
    expect_io(c.n, d->numInputs(), d->numOutputs());
    set_op(c.n, OpKind::StandIn, StandInAttrs{d->numInputs(), d->numOutputs()});
}

}  // namespace

std::vector<LayerMapper> control_layers() {
    using L = fb::Layer;
    return {plain_row<L::MergeLayer, OpKind::Merge, 2, 1>(),
            plain_row<L::SwitchLayer, OpKind::Switch, 2, 2>(),
            plain_row<L::RankLayer, OpKind::Rank, 1, 1>(),
            plain_row<L::ShapeLayer, OpKind::Shape, 1, 1>(),
            layer_row<fb::DetectionPostProcessLayer, detection_post_process>(),
            descriptor_row<fb::FillLayer, fill>(),
            descriptor_row<fb::StandInLayer, stand_in>()};
}

}  // namespace npurun::armnn::mapping
