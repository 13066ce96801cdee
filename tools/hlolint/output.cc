#include "output.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/strings.h"

namespace hlolint {
namespace {

bool WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool EnvSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0';
}

bool EnvForces(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

}  // namespace

bool WriteFileAtomically(const std::string& path, std::string_view text, std::string* error) {
  const std::filesystem::path target(path);
  std::filesystem::path directory = target.parent_path();
  if (directory.empty()) directory = ".";
  std::string pattern = (directory / StrCat(".", target.filename().string(), ".tmp.XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    *error = StrCat(path, ": cannot create a temporary file next to it: ", std::strerror(errno));
    return false;
  }
  // mkstemp creates 0600; reports are ordinary files.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  const bool written = WriteAll(fd, text);
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    *error = StrCat(path, ": cannot write: ", std::strerror(written ? errno : saved));
    ::unlink(name.data());
    return false;
  }
  if (::rename(name.data(), path.c_str()) != 0) {
    *error = StrCat(path, ": cannot write: ", std::strerror(errno));
    ::unlink(name.data());
    return false;
  }
  return true;
}

bool WriteStdout(std::string_view text) {
  std::fflush(stdout);
  return WriteAll(STDOUT_FILENO, text);
}

bool StdoutIsTerminal() { return ::isatty(STDOUT_FILENO) == 1; }

bool ShouldColor(ColorMode mode, bool to_terminal) {
  switch (mode) {
    case ColorMode::kAlways: return true;
    case ColorMode::kNever: return false;
    case ColorMode::kAuto: break;
  }
  if (EnvForces("FORCE_COLOR") || EnvForces("CLICOLOR_FORCE")) return true;
  if (EnvSet("NO_COLOR")) return false;
  // A terminal that says it understands no escape sequences (Emacs' shell,
  // some CI logs) would show them as text.
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return to_terminal;
}

uint32_t ReportWidth(bool to_terminal) {
  constexpr uint32_t kDefault = 100;
  constexpr uint32_t kNarrowest = 40;  // below this, clipping hides the code
  if (to_terminal) {
    struct winsize size {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
      return std::max<uint32_t>(size.ws_col, kNarrowest);
    }
  }
  const char* columns = std::getenv("COLUMNS");
  if (columns != nullptr && columns[0] != '\0') {
    char* end = nullptr;
    const long value = std::strtol(columns, &end, 10);
    if (*end == '\0' && value > 0) {
      return static_cast<uint32_t>(std::clamp<long>(value, kNarrowest, 100000));
    }
  }
  return kDefault;
}

}  // namespace hlolint
