// Layer mapping, Merge, Switch, Rank, Shape, DetectionPostProcess, Fill, StandIn.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_control_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::MergeLayer: plain(n, OpKind::Merge, 2, 1); return true;
        case L::SwitchLayer: plain(n, OpKind::Switch, 2, 2); return true;
        case L::RankLayer: plain(n, OpKind::Rank, 1, 1); return true;
        case L::ShapeLayer: plain(n, OpKind::Shape, 1, 1); return true;
        case L::DetectionPostProcessLayer: {
            const auto* l = static_cast<const fb::DetectionPostProcessLayer*>(t);
            const auto* d = NPURUN_DESC(DetectionPostProcessDescriptor, l->descriptor());
            expect_io(n, 2, 4);
            DetectionPostProcessAttrs a;
            a.max_detections = d->maxDetections();
            a.max_classes_per_detection = d->maxClassesPerDetection();
            a.detections_per_class = d->detectionsPerClass();
            a.nms_score_threshold = d->nmsScoreThreshold();
            a.nms_iou_threshold = d->nmsIouThreshold();
            a.num_classes = d->numClasses();
            a.use_regular_nms = d->useRegularNms();
            a.scale_x = d->scaleX();
            a.scale_y = d->scaleY();
            a.scale_w = d->scaleW();
            a.scale_h = d->scaleH();
            n.inputs.push_back(add_constant(g, l->anchors(), n, "anchors"));
            n.op = OpKind::DetectionPostProcess;
            n.attrs = a;
            return true;
        }
        case L::FillLayer: {
            const auto* d = NPURUN_DESC(FillDescriptor, static_cast<const fb::FillLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Fill;
            n.attrs = FillAttrs{d->value()};
            return true;
        }
        case L::StandInLayer: {
            const auto* d = NPURUN_DESC(StandInDescriptor, static_cast<const fb::StandInLayer*>(t)->descriptor());
            expect_io(n, d->numInputs(), d->numOutputs());
            n.op = OpKind::StandIn;
            n.attrs = StandInAttrs{d->numInputs(), d->numOutputs()};
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping
