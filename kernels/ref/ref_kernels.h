// The reference kernel objects, one per op (or op family), defined in kernels/ref/<op>.cpp.
// To add an op: write kernels/ref/<op>.cpp defining `const Kernel k<Op>`, declare it here, list the file
// in kernels/meson.build and point the op's line in registry.cpp at it.
#pragma once

#include "kernels/kernel.h"

namespace npurun::kernels::ref {

extern const Kernel kActivation;
extern const Kernel kArgMinMax;
extern const Kernel kBatchMatMul;
extern const Kernel kBatchNormalization;
extern const Kernel kBatchToSpaceNd;
extern const Kernel kCast;
extern const Kernel kChannelShuffle;
extern const Kernel kComparison;
extern const Kernel kConcat;
extern const Kernel kConvolution2d;
extern const Kernel kConvolution3d;
extern const Kernel kDepthToSpace;
extern const Kernel kDepthwiseConvolution2d;
extern const Kernel kDequantize;
extern const Kernel kDetectionOutput;
extern const Kernel kRoiPooling;
extern const Kernel kDetectionPostProcess;
extern const Kernel kElementwiseBinary;
extern const Kernel kElementwiseUnary;
extern const Kernel kFill;
extern const Kernel kFloor;
extern const Kernel kFullyConnected;
extern const Kernel kGather;
extern const Kernel kGatherNd;
extern const Kernel kInstanceNormalization;
extern const Kernel kL2Normalization;
extern const Kernel kLogSoftmax;
extern const Kernel kLogicalBinary;
extern const Kernel kLstm;
extern const Kernel kMean;
extern const Kernel kMerge;
extern const Kernel kNormalization;
extern const Kernel kPad;
extern const Kernel kPermute;
extern const Kernel kPooling2d;
extern const Kernel kPooling3d;
extern const Kernel kPrelu;
extern const Kernel kQLstm;
extern const Kernel kQuantize;
extern const Kernel kQuantizedLstm;
extern const Kernel kRank;
extern const Kernel kReduce;
extern const Kernel kReshape;
extern const Kernel kResize;
extern const Kernel kShape;
extern const Kernel kSlice;
extern const Kernel kSoftmax;
extern const Kernel kSpaceToBatchNd;
extern const Kernel kSpaceToDepth;
extern const Kernel kSplitter;
extern const Kernel kStack;
extern const Kernel kReverseV2;
extern const Kernel kScatterNd;
extern const Kernel kTile;
extern const Kernel kStandIn;
extern const Kernel kStridedSlice;
extern const Kernel kSwitch;
extern const Kernel kTranspose;
extern const Kernel kTransposeConvolution2d;
extern const Kernel kUnidirectionalSequenceLstm;

}  // namespace npurun::kernels::ref
