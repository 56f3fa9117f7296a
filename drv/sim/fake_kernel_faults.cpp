#include "drv/sim/fake_kernel_faults.h"

namespace npudrv::sim {

void FaultInjector::add(const FaultRule& rule) {
    std::lock_guard<std::mutex> lock(mutex_);
    rules_.push_back({rule, 0});
}

void FaultInjector::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    rules_.clear();
}

size_t FaultInjector::injected() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return injected_;
}

size_t FaultInjector::seen(SysCall call, unsigned long request) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [key, n] : seen_)
        if (key.first == call && key.second == request) return n;
    return 0;
}

std::optional<int> FaultInjector::decide(SysCall call, unsigned long request) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Counted both per request and under "any request" (0), so seen(Ioctl) counts every ioctl.
    for (unsigned long key : {request, 0ul}) {
        bool found = false;
        for (auto& [k, n] : seen_)
            if (k.first == call && k.second == key) ++n, found = true;
        if (!found) seen_.push_back({{call, key}, 1});
        if (key == 0) break;
    }
    for (Active& a : rules_) {
        if (a.rule.call != call || (call == SysCall::Ioctl && a.rule.request != 0 && a.rule.request != request)) continue;
        const unsigned index = a.matched++;
        if (index < a.rule.skip) continue;
        const unsigned after = index - a.rule.skip;
        const unsigned period = a.rule.period == 0 ? 1 : a.rule.period;
        if (after % period != 0) continue;
        if (a.rule.count != UINT_MAX && after / period >= a.rule.count) continue;
        ++injected_;
        return a.rule.error;
    }
    return std::nullopt;
}

int FaultInjector::open(const std::string& path, int flags) {
    if (auto e = decide(SysCall::Open, 0)) return -*e;
    return inner_->open(path, flags);
}

int FaultInjector::ioctl(int fd, unsigned long request, void* arg) {
    if (auto e = decide(SysCall::Ioctl, request)) return -*e;
    return inner_->ioctl(fd, request, arg);
}

void* FaultInjector::mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) {
    if (auto e = decide(SysCall::Mmap, 0)) {
        *error = *e;
        return nullptr;
    }
    return inner_->mmap(length, prot, flags, fd, offset, error);
}

int FaultInjector::poll_readable(int fd, int timeout_ms) {
    if (auto e = decide(SysCall::Poll, 0)) return *e == 0 ? 0 : -*e;
    return inner_->poll_readable(fd, timeout_ms);
}

namespace {
std::mutex g_override_mutex;
SimDeviceOverride g_override;
}  // namespace

SimDeviceOverride set_sim_device_override(SimDeviceOverride o) {
    std::lock_guard<std::mutex> lock(g_override_mutex);
    std::swap(g_override, o);
    return o;
}

SimDeviceOverride sim_device_override() {
    std::lock_guard<std::mutex> lock(g_override_mutex);
    return g_override;
}

}  // namespace npudrv::sim
