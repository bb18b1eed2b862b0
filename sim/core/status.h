// SPDX-License-Identifier: MIT
// Status: the error type of the froce-sim API. Empty message = success.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>

namespace froce_sim {

class [[nodiscard]] Status {
public:
    Status() = default;
    static Status ok_status() { return Status(); }
    static Status error(std::string msg) {
        Status s;
        s.msg_ = msg.empty() ? std::string("error") : std::move(msg);
        return s;
    }
    bool ok() const { return msg_.empty(); }
    explicit operator bool() const { return ok(); }
    const std::string &message() const { return msg_; }
    // Prefixes the message with context ("create_qp: ...").
    Status &context(const std::string &what) {
        if (!ok()) msg_ = what + ": " + msg_;
        return *this;
    }

private:
    std::string msg_;
};

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline Status errorf(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return Status::error(buf);
}

}  // namespace froce_sim

// Return the error of a Status-returning expression to the caller.
#define FROCE_TRY(expr)                                   \
    do {                                                  \
        ::froce_sim::Status _st = (expr);                 \
        if (!_st.ok()) return _st;                        \
    } while (0)
