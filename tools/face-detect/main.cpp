// face-detect: faces in a photograph with an UltraFace-style detector (.mnn, .armnn: any model with a
// scores [1,N,2] and a boxes [1,N,4] output), through npurun's public C++ API only.
//
//   face-detect [--model M] [options] IMAGE [-o OUT.png]
//   face-detect --scores S.bin --boxes B.bin [options] IMAGE [-o OUT.png]
//
// The second form decodes raw float32 outputs computed elsewhere (e.g. by the MNN runtime), so the decoder
// can be checked against a reference independently of any model loader.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "tools/common/image.h"
#include "tools/common/image_draw.h"
#include "tools/common/image_tensor.h"
#include "tools/face-detect/face_decode.h"

using namespace npurun;

namespace {

const char* kUsage =
    "usage: face-detect [options] --model MODEL IMAGE [-o OUT.png]\n"
    "       face-detect [options] --scores S.bin --boxes B.bin IMAGE [-o OUT.png]\n"
    "\n"
    "Finds faces in IMAGE (.jpg, .jpeg, .png, .ppm, .pgm, .bmp) with a face detector that has a scores\n"
    "[1,N,2] and a boxes [1,N,4] output (Ultra-Light-Fast-Generic-Face-Detector: slim-320, RFB-320), prints\n"
    "one line per face (pixels of IMAGE) and, with -o, writes IMAGE with the boxes drawn as PNG.\n"
    "\n"
    "options:\n"
    "      --model MODEL      run MODEL (.armnn, .mnn) on IMAGE: resized to the model input (stretch),\n"
    "                         RGB, (pixel - 127) / 128, in the input's layout\n"
    "      --input-tensor FILE  with --model: feed FILE's raw bytes (the model input's exact size) instead of\n"
    "                         the converted IMAGE, which then only gives the picture size and the drawing\n"
    "      --scores FILE --boxes FILE  raw float32 outputs instead of a model run (N from the sizes)\n"
    "      --input-size WxH   network input size the priors are made for with --scores/--boxes\n"
    "                         (default 320x240; with --model: the model input's)\n"
    "      --device DEV       auto, cpu, npu or sim (with --model; default auto)\n"
    "      --threshold T      face score threshold (default 0.7)\n"
    "      --iou T            NMS overlap threshold (default 0.3)\n"
    "      --nms blending|hard  merge overlapping boxes weighted by exp(score) (default) or keep the best\n"
    "      --json             print the faces as JSON instead of text\n"
    "  -o, --output OUT.png   write IMAGE with the faces drawn\n"
    "  -h, --help             print this help\n"
    "\n"
    "Exit status: 0 success (also when no face is found); 2 bad file or option; 1 runtime failure.\n";

[[noreturn]] void usage_error(const std::string& msg) { fail(ErrorKind::BadInput, msg + " (see 'face-detect --help')"); }

float parse_fraction(const std::string& flag, const std::string& v) {
    char* end = nullptr;
    errno = 0;
    const float f = std::strtof(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || errno != 0 || !(f >= 0.0f && f <= 1.0f))
        usage_error(flag + " expects a number from 0 to 1, got '" + v + "'");
    return f;
}

std::vector<float> read_floats(const std::string& path, const char* what) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) fail(ErrorKind::BadInput, std::string(what) + ": cannot open '" + path + "': " + std::strerror(errno));
    std::vector<uint8_t> bytes;
    uint8_t buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
    if (bytes.empty() || bytes.size() % 4 != 0)
        fail(ErrorKind::BadInput, std::string(what) + ": '" + path + "' has " + std::to_string(bytes.size()) +
                                      " bytes, not a whole number of float32 values");
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

// The output with this role: by name ("scores"/"boxes") first, else by shape [1,N,k].
const TensorBinding* find_output(const Session& s, const char* name, uint32_t k) {
    for (size_t i = 0; i < s.num_outputs(); ++i)
        if (s.output(i).name == name) return &s.output(i);
    for (size_t i = 0; i < s.num_outputs(); ++i) {
        const Shape& sh = s.output(i).info.shape;
        if (sh.rank == 3 && sh[0] == 1 && sh[2] == k) return &s.output(i);
    }
    return nullptr;
}

std::vector<float> as_floats(const TensorBinding& b, const char* role) {
    if (b.info.dtype != DataType::Float32)
        fail(ErrorKind::BadModel, std::string("the ") + role + " output '" + b.name + "' is " + to_string(b.info.dtype) +
                                      ", expected Float32");
    std::vector<float> v(b.info.shape.num_elements());
    std::memcpy(v.data(), b.data, v.size() * 4);
    return v;
}

int run(int argc, char** argv) {
    std::string model, scores_path, boxes_path, image_path, out_path, input_tensor;
    std::string device = "auto";
    uint32_t in_w = 320, in_h = 240;
    bool size_given = false, json = false;
    face::DecodeOptions opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage_error("option " + a + " needs a value");
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--model") {
            model = value();
        } else if (a == "--input-tensor") {
            input_tensor = value();
        } else if (a == "--scores") {
            scores_path = value();
        } else if (a == "--boxes") {
            boxes_path = value();
        } else if (a == "-o" || a == "--output") {
            out_path = value();
        } else if (a == "--device") {
            device = value();
            if (device != "auto" && device != "cpu" && device != "npu" && device != "sim")
                usage_error("unknown device '" + device + "' (expected auto, cpu, npu or sim)");
        } else if (a == "--input-size") {
            const std::string v = value();
            unsigned w = 0, h = 0;
            char tail = 0;
            if (std::sscanf(v.c_str(), "%ux%u%c", &w, &h, &tail) != 2 || w == 0 || h == 0 || w > 8192 || h > 8192)
                usage_error("--input-size expects WxH (e.g. 320x240), got '" + v + "'");
            in_w = w, in_h = h, size_given = true;
        } else if (a == "--threshold") {
            opt.score_threshold = parse_fraction(a, value());
        } else if (a == "--iou") {
            opt.iou_threshold = parse_fraction(a, value());
        } else if (a == "--nms") {
            const std::string v = value();
            if (v == "blending") opt.nms = face::Nms::Blending;
            else if (v == "hard") opt.nms = face::Nms::Hard;
            else usage_error("--nms expects blending or hard, got '" + v + "'");
        } else if (a == "--json") {
            json = true;
        } else if (!a.empty() && a[0] == '-') {
            usage_error("unknown option '" + a + "'");
        } else {
            if (!image_path.empty()) usage_error("more than one image given");
            image_path = a;
        }
    }
    if (image_path.empty()) usage_error("no image given");
    const bool raw = !scores_path.empty() || !boxes_path.empty();
    if (raw && (scores_path.empty() || boxes_path.empty())) usage_error("--scores and --boxes go together");
    if (raw == !model.empty()) usage_error("give either --model or --scores and --boxes");
    if (raw && !input_tensor.empty()) usage_error("--input-tensor is for --model");
    if (!raw && size_given) usage_error("--input-size is for --scores/--boxes; a model's input size is its own");
    if (!out_path.empty() && image::format_from_name(out_path) != image::ImageFormat::Png)
        usage_error("-o writes PNG: the name must end in .png");

    const image::Image img = image::read_image(image_path);
    std::vector<float> scores, boxes;
    if (raw) {
        scores = read_floats(scores_path, "--scores");
        boxes = read_floats(boxes_path, "--boxes");
    } else {
        auto m = Model::load(model);
        if (m->graph().inputs.size() != 1)
            fail(ErrorKind::BadModel, "'" + model + "' has " + std::to_string(m->graph().inputs.size()) + " inputs; a face detector has one");
        image::Preprocess pre;  // the detector's training preprocessing: RGB, (p - 127) / 128
        pre.mean = {127.0f};
        pre.stddev = {128.0f};
        const image::InputPlan plan = image::plan_image_input(m->graph(), m->graph().inputs[0], pre);
        if (!plan.refusal.empty()) fail(ErrorKind::BadModel, "'" + model + "': " + plan.refusal);
        in_w = plan.width, in_h = plan.height;
        SessionOptions so;
        so.device = device == "cpu" ? DeviceKind::Cpu : device == "npu" ? DeviceKind::Npu : device == "sim" ? DeviceKind::Sim : DeviceKind::Auto;
        Session session(m, so);
        // The outputs are known before anything runs: a model that is no face detector is refused first.
        const TensorBinding* s = find_output(session, "scores", 2);
        const TensorBinding* b = find_output(session, "boxes", 4);
        if (!s || !b) fail(ErrorKind::BadModel, "'" + model + "' has no scores [1,N,2] and boxes [1,N,4] outputs");
        std::vector<uint8_t> tensor;
        if (input_tensor.empty()) {
            tensor = image::image_to_tensor(img, plan, image_path);
        } else {
            const std::vector<float> v = read_floats(input_tensor, "--input-tensor");
            if (v.size() * 4 != session.input(0).info.num_bytes())
                fail(ErrorKind::BadInput, "--input-tensor: '" + input_tensor + "' has " + std::to_string(v.size() * 4) +
                                              " bytes, the input " + session.input(0).info.str() + " needs " +
                                              std::to_string(session.input(0).info.num_bytes()));
            tensor.resize(v.size() * 4);
            std::memcpy(tensor.data(), v.data(), tensor.size());
        }
        std::memcpy(session.input(0).data, tensor.data(), tensor.size());
        session.run();
        scores = as_floats(*s, "scores");
        boxes = as_floats(*b, "boxes");
    }
    const std::vector<face::Prior> priors = face::make_priors(in_w, in_h);
    if (scores.size() != priors.size() * 2 || boxes.size() != priors.size() * 4)
        fail(ErrorKind::BadInput, "a " + std::to_string(in_w) + "x" + std::to_string(in_h) + " input has " +
                                      std::to_string(priors.size()) + " priors, so scores must hold " +
                                      std::to_string(priors.size() * 2) + " and boxes " + std::to_string(priors.size() * 4) +
                                      " floats; got " + std::to_string(scores.size()) + " and " + std::to_string(boxes.size()));
    const std::vector<face::Face> faces = face::decode_faces(scores.data(), boxes.data(), priors, img.width, img.height, opt);
    if (json) {
        std::printf("{\n \"image\": \"%s\",\n \"image_wh\": [%u, %u],\n \"num_candidates\": %zu,\n \"faces\": [", image_path.c_str(),
                    img.width, img.height, face::count_candidates(scores.data(), priors.size(), opt.score_threshold));
        for (size_t i = 0; i < faces.size(); ++i) {
            const face::Face& f = faces[i];
            std::printf("%s\n  {\"x1\": %.9g, \"y1\": %.9g, \"x2\": %.9g, \"y2\": %.9g, \"score\": %.9g, \"anchor\": %u, \"merged\": %u}",
                        i ? "," : "", f.x1, f.y1, f.x2, f.y2, f.score, f.anchor, f.merged);
        }
        std::printf("\n ]\n}\n");
    } else {
        std::printf("%zu face%s in %s (%ux%u), threshold %.2f, %s NMS at IoU %.2f\n", faces.size(), faces.size() == 1 ? "" : "s",
                    image_path.c_str(), img.width, img.height, double(opt.score_threshold),
                    opt.nms == face::Nms::Blending ? "blending" : "hard", double(opt.iou_threshold));
        for (size_t i = 0; i < faces.size(); ++i) {
            const face::Face& f = faces[i];
            std::printf("  face %2zu: x1 %7.1f  y1 %7.1f  x2 %7.1f  y2 %7.1f  score %.4f\n", i + 1, f.x1, f.y1, f.x2, f.y2, f.score);
        }
    }
    if (!out_path.empty()) {
        image::Image drawn = img;
        if (drawn.channels == 1) drawn = image::to_rgb(drawn);
        for (const face::Face& f : faces)
            image::draw_rectangle(drawn, int(std::lround(f.x1)), int(std::lround(f.y1)), int(std::lround(f.x2)),
                                  int(std::lround(f.y2)), 2, {0, 255, 0});
        image::write_png(drawn, out_path);
        if (!json) std::printf("wrote %s\n", out_path.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int rc = run(argc, argv);
        if (std::fflush(stdout) != 0) fail(ErrorKind::Runtime, "cannot write to standard output");
        return rc;
    } catch (const Error& e) {
        std::string msg = e.what();
        for (char& c : msg)
            if (c == '\n' || c == '\r') c = ' ';
        std::fprintf(stderr, "face-detect: error: %s\n", msg.c_str());
        return exit_code(e.kind());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "face-detect: error: %s\n", e.what());
        return 1;
    }
}
