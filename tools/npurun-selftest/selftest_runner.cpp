#include "tools/npurun-selftest/selftest_runner.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "drv/device_factory.h"
#include "drv/error.h"
#include "drv/sim/recording_hardware.h"
#include "include/npurun/npurun.hpp"
#include "kernels/ref/registry.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/npurun_version.h"
#include "runtime/passes/lstm_lowering.h"
#include "runtime/passes/placement.h"
#include "runtime/session/session_factory.h"
#include "tools/npurun-selftest/selftest_compare.h"
#include "tools/npurun-selftest/selftest_prng.h"

namespace npurun::selftest {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void probe_device(bool sim, DeviceStatus* st) {
    st->selected = true;
    try {
        npudrv::DeviceRequest r;
        if (sim) {
            // Only the driver path is opened here; the sessions bring their own functional simulator.
            r.kind = npudrv::DeviceKind::Sim;
            r.hardware = std::make_unique<npudrv::sim::RecordingHardware>();
        } else {
            r.kind = npudrv::DeviceKind::Npu;
        }
        npudrv::Device d = npudrv::open_device(std::move(r));
        st->info = d.info();
        st->available = true;
        st->state = "ok";
    } catch (const npudrv::DriverError& e) {
        st->message = e.what();
        // No node of either driver: the board has no (bound) NPU. Anything else (permission denied, an
        // unsupported driver version, a failing ioctl) is a device that exists but does not work.
        if (sim) st->state = e.kind() == ErrorKind::Unsupported ? "not built" : "error";
        else st->state = e.error_number() == ENODEV ? "not present" : "error";
    } catch (const Error& e) {
        st->message = e.what();
        st->state = sim && e.kind() == ErrorKind::Unsupported ? "not built" : "error";
    }
}

// The CPU reference: kernels/ref for every node, never the NEON kernels (the oracle, as in the tests).
std::unique_ptr<Session> reference_session(const std::shared_ptr<const Model>& model) {
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    return SessionFactory::create(model, o, [](const Node& n, const Graph&) { return kernels::ref_kernel(n.op); });
}

void fill_inputs(Session& s, const BuiltCase& b, uint32_t seed) {
    for (size_t i = 0; i < s.num_inputs(); ++i) {
        TensorBinding& in = s.input(i);
        Prng rng(uint64_t{seed} * 1000003u + i + 1);
        const size_t n = in.info.shape.num_elements();
        if (in.info.dtype == DataType::Float32) {
            bool divisor = false;
            for (int32_t d : b.divisor_inputs) divisor = divisor || d == int32_t(i);
            auto* p = static_cast<float*>(in.data);
            for (size_t k = 0; k < n; ++k) p[k] = divisor ? rng.uniform(0.5f, 1.5f) : rng.uniform(-1.0f, 1.0f);
        } else {
            auto* p = static_cast<uint8_t*>(in.data);
            for (size_t k = 0; k < in.info.num_bytes(); ++k) p[k] = static_cast<uint8_t>(rng.range(0, 255));
        }
    }
}

// Every computing layer of the model must be placed on the NPU (or fused into an NPU layer): otherwise the
// case would compare the CPU with itself. Returns the first layer that is not, with the placement's reason.
std::string placement_problem(const Model& m, bool fp16) {
    // As the NPU backend places it: an Lstm as its parts (runtime/passes/lstm_lowering.h).
    const PlacementOptions options = npu::npu_placement_options(fp16);
    const std::unique_ptr<Graph> lowered = lower_lstm_layers(m.graph(), options);
    const Graph& g = lowered ? *lowered : m.graph();
    const Placement p = place(g, options);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.op == OpKind::Input || n.op == OpKind::Output || n.op == OpKind::Constant) continue;
        if (p.nodes[i].device == Placed::Cpu)
            return "layer '" + n.name + "' (" + to_string(n.op) + ") is not placed on the NPU: " + p.nodes[i].reason;
    }
    return {};
}

void corrupt_output(Session& s) {
    const TensorBinding& o = s.output(0);  // the binding is const, the bytes it points to are not
    if (o.info.dtype == DataType::Float32) {
        static_cast<float*>(o.data)[0] += 1.0f;
    } else {
        static_cast<uint8_t*>(o.data)[0] ^= 0x40;  // 64 codes away in either int8 type
    }
}

bool same_outputs_size(const Session& a, const Session& b) {
    if (a.num_outputs() != b.num_outputs()) return false;
    for (size_t i = 0; i < a.num_outputs(); ++i)
        if (a.output(i).info.num_bytes() != b.output(i).info.num_bytes()) return false;
    return true;
}

// The most lanes (one per core) of any NPU job of the session.
uint32_t lanes_used(const Session& s) {
    uint32_t lanes = 0;
    if (const npu::NpuBackend* be = SessionFactory::npu_backend(s))
        for (const auto& seg : be->segments()) lanes = std::max(lanes, seg->lane_count());
    return lanes;
}

std::unique_ptr<Session> device_session(const std::string& device, const std::shared_ptr<const Model>& model,
                                        const Case& c, unsigned cores) {
    SessionOptions o;
    o.device = device == "sim" ? DeviceKind::Sim : DeviceKind::Npu;
    o.fp16 = c.precision == Precision::Fp16;
    o.profile = true;
    o.npu_cores = cores;
    return std::make_unique<Session>(model, o);
}

DeviceRun run_device(const std::string& device, const std::shared_ptr<const Model>& model, const Case& c,
                     const BuiltCase& b, Session& ref, const RunOptions& options, std::unique_ptr<Session>* kept) {
    DeviceRun r;
    r.device = device;
    r.cores_requested = c.cores;
    try {
        auto s = device_session(device, model, c, c.cores);
        r.cores_used = lanes_used(*s);
        // A forced split must really happen: a job of fewer lanes would test one core under a multi-core name.
        if (c.cores > 1 && r.cores_used != c.cores)
            r.error = "the job has " + std::to_string(r.cores_used) + " lane(s), not " + std::to_string(c.cores);
        fill_inputs(*s, b, case_seed(c.name));
        const auto t0 = Clock::now();
        s->run();
        r.ms = ms_since(t0);
        r.ran = true;
        if (options.corrupt_device == device) corrupt_output(*s);

        // The profile names the device of every layer: all of them must have run there. A layer rewritten into
        // parts (an Lstm: "l0/forget.x", ...) is its parts.
        for (const LayerProfile& row : s->profile()) {
            for (size_t l = 0; l < b.layer_names.size(); ++l) {
                const std::string& layer = b.layer_names[l];
                if (row.name != layer && row.name.compare(0, layer.size() + 1, layer + "/") != 0) continue;
                if (row.device != device) {
                    r.error = "layer " + row.name + " ran on " + row.device;
                } else {
                    r.tasks += row.tasks;
                    // Tiled: more tasks than lanes (each lane of a split job has at least one task).
                    if (b.must_tile[l] && row.tasks <= std::max(1u, r.cores_used) && r.error.empty())
                        r.error = "layer " + row.name + " was not tiled (" + std::to_string(row.tasks) + " task)";
                }
            }
        }
        if (!same_outputs_size(ref, *s)) {
            r.error = "outputs differ in number or size from the CPU reference";
        } else {
            for (size_t i = 0; i < s->num_outputs(); ++i) {
                const TensorInfo& info = ref.output(i).info;
                // The tolerance needs the reference's magnitude first (fp16); int8: codes.
                Comparison cmp = compare_to_reference(info, ref.output(i).data, s->output(i).data, 0.0);
                r.tolerance = c.precision == Precision::Fp16 ? fp16_tolerance(cmp.max_ref, b.rounding_steps)
                                                             : static_cast<double>(b.rounding_steps);
                cmp.within = cmp.error.empty() && cmp.max_diff <= r.tolerance;
                r.max_diff = std::max(r.max_diff, cmp.max_diff);
                if (!cmp.error.empty() && r.error.empty()) r.error = cmp.error;
                if (!cmp.within && !r.first_diff.found) {
                    r.first_diff = first_element_beyond(info, ref.output(i).data, s->output(i).data, r.tolerance);
                    r.first_diff.output = i;
                }
                if (!cmp.within && r.error.empty()) {
                    char buf[256];
                    std::snprintf(buf, sizeof buf, "output %zu element %zu differs from the CPU reference by %g (tolerance %g)",
                                  i, cmp.worst, cmp.max_diff, r.tolerance);
                    r.error = buf;
                    const ElementDiff& f = r.first_diff;
                    if (f.found && f.output == i) {
                        std::snprintf(buf, sizeof buf, "; first beyond it: element %zu, expected %.9g, got %.9g", f.index,
                                      f.expected, f.got);
                        r.error += buf;
                    }
                }
            }
        }
        r.pass = r.error.empty();
        *kept = std::move(s);
    } catch (const std::exception& e) {
        r.pass = false;
        r.error = e.what();
    }
    return r;
}

// The same model on one device with 1, 2 and 3 cores: the split must not change a single byte.
void core_sweep(const std::string& device, const Case& c, const std::shared_ptr<const Model>& model,
                const BuiltCase& b, CaseResult* r) {
    if (!r->core_sweep) r->core_sweep_identical = true;
    r->core_sweep = true;
    r->core_sweep_devices.push_back(device);
    const bool first = r->core_sweep_devices.size() == 1;
    std::vector<std::unique_ptr<Session>> runs;
    for (unsigned cores = 1; cores <= 3 && r->core_sweep_identical; ++cores) {
        auto s = device_session(device, model, c, cores);
        fill_inputs(*s, b, case_seed(c.name));
        s->run();
        const uint32_t lanes = lanes_used(*s);
        if (first) r->core_sweep_lanes.push_back(lanes);
        runs.push_back(std::move(s));
        if (lanes != cores) {
            r->core_sweep_identical = false;  // the sweep would compare fewer splits than it claims
            r->core_sweep_detail = device + " with " + std::to_string(cores) + " cores ran a job of " +
                                   std::to_string(lanes) + " lane(s)";
        }
    }
    for (size_t k = 1; k < runs.size() && r->core_sweep_identical; ++k) {
        if (!same_outputs_size(*runs[0], *runs[k])) {
            r->core_sweep_identical = false;
            r->core_sweep_detail = device + " outputs differ in size between 1 and " + std::to_string(k + 1) + " cores";
            break;
        }
        for (size_t i = 0; i < runs[0]->num_outputs(); ++i) {
            const ByteComparison bc = compare_bytes(runs[0]->output(i).data, runs[k]->output(i).data, runs[0]->output(i).info.num_bytes());
            if (!bc.identical) {
                r->core_sweep_identical = false;
                r->core_sweep_detail = device + " with " + std::to_string(k + 1) + " cores differs from 1 core in " +
                                       std::to_string(bc.differing) + " bytes of output " + std::to_string(i) +
                                       ", first at byte " + std::to_string(bc.first);
                break;
            }
        }
    }
}

}  // namespace

Environment probe_environment(DeviceSelection selection) {
    Environment env;
    env.tool_version = NPURUN_VERSION;
    struct utsname u {};
    if (::uname(&u) == 0) {
        env.kernel = std::string(u.sysname) + " " + u.release + " " + u.version;
        env.machine = u.machine;
    }
    if (selection != DeviceSelection::Npu) probe_device(true, &env.sim);
    if (selection != DeviceSelection::Sim) probe_device(false, &env.npu);
    return env;
}

CaseResult run_case(const Case& c, const Environment& env, const RunOptions& options) {
    CaseResult r;
    r.spec = &c;
    const auto t0 = Clock::now();
    try {
        r.built = build_case(c);
        auto model = Model::load_from_memory(r.built.armnn.data(), r.built.armnn.size(), "self-test case " + c.name);
        const std::string misplaced = placement_problem(*model, c.precision == Precision::Fp16);
        if (!misplaced.empty()) fail(ErrorKind::Unsupported, misplaced);

        std::unique_ptr<Session> ref = reference_session(model);
        fill_inputs(*ref, r.built, case_seed(c.name));
        const auto tc = Clock::now();
        ref->run();
        r.cpu_ms = ms_since(tc);
        if (options.corrupt_device == "cpu") corrupt_output(*ref);

        std::unique_ptr<Session> sim, npu;
        if (env.sim.available) r.runs.push_back(run_device("sim", model, c, r.built, *ref, options, &sim));
        if (env.npu.available) r.runs.push_back(run_device("npu", model, c, r.built, *ref, options, &npu));
        if (sim && npu && same_outputs_size(*sim, *npu)) {
            r.npu_vs_sim = true;
            r.npu_sim_identical = true;
            for (size_t i = 0; i < npu->num_outputs(); ++i) {
                const ByteComparison bc = compare_bytes(sim->output(i).data, npu->output(i).data, sim->output(i).info.num_bytes());
                if (!bc.identical && r.npu_sim_identical) {
                    r.npu_sim_identical = false;
                    r.npu_sim_first = first_differing_element(sim->output(i).info, sim->output(i).data, npu->output(i).data);
                    r.npu_sim_first.output = i;
                    r.npu_sim_detail = "npu differs from sim in " + std::to_string(bc.differing) + " bytes of output " +
                                       std::to_string(i) + ", first at byte " + std::to_string(bc.first);
                }
            }
        }
        // Forced multi-core cases: every device also runs 1, 2 and 3 cores, compared with each other (on a
        // board, the NPU's own lanes; npu==sim above only covers the case's core count).
        if (c.cores > 1 && env.sim.available) core_sweep("sim", c, model, r.built, &r);
        if (c.cores > 1 && env.npu.available) core_sweep("npu", c, model, r.built, &r);
        r.pass = r.npu_vs_sim ? r.npu_sim_identical : true;
        if (r.core_sweep) r.pass = r.pass && r.core_sweep_identical;
        for (const DeviceRun& d : r.runs) r.pass = r.pass && d.pass;
    } catch (const std::exception& e) {
        r.pass = false;
        r.error = e.what();
    }
    r.total_ms = ms_since(t0);
    return r;
}

}  // namespace npurun::selftest
