#include "spirv/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>

#include "absl/strings/str_cat.h"

namespace l0spv::spirv {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

// Writes all of `data` to `fd`, retrying short writes and EINTR.
bool WriteAll(int fd, const char* data, size_t size, int* err) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

absl::Status WriteError(const std::string& what, const std::string& path,
                        int err) {
  // ENOSPC / EDQUOT / EROFS: the disk, not the input; say so.
  std::string advice;
  if (err == ENOSPC || err == EDQUOT) {
    advice = "; free space on that file system and re-run (a campaign resumes)";
  } else if (err == EFBIG) {
    advice =
        "; the file-size limit was reached (ulimit -f): raise it and re-run";
  } else if (err == EROFS || err == EACCES || err == EPERM) {
    advice = "; choose a writable --out";
  }
  return absl::ResourceExhaustedError(
      absl::StrCat(path, ": cannot ", what, " (errno ", err, ": ",
                   ErrnoText(err), ")", advice));
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path,
                                                   uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open for reading (", ErrnoText(err), ")"));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a file"));
  }
  // Back to blocking reads (pipes); O_NONBLOCK only kept open() from
  // waiting for a FIFO's writer.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  auto too_big = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": larger than the ", max_bytes,
                     "-byte limit for this input (is it the file you meant?)"));
  };
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return too_big();
  }
  std::vector<uint8_t> bytes;
  if (S_ISREG(st.st_mode)) bytes.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::DataLossError(
          absl::StrCat(path, ": read error (", ErrnoText(err), ")"));
    }
    if (n == 0) break;
    if (bytes.size() + static_cast<uint64_t>(n) > max_bytes) {
      ::close(fd);
      return too_big();
    }
    try {
      bytes.insert(bytes.end(), buffer, buffer + n);
    } catch (const std::bad_alloc&) {
      ::close(fd);
      return absl::ResourceExhaustedError(
          absl::StrCat(path, ": out of memory after ", bytes.size(), " bytes"));
    }
  }
  ::close(fd);
  return bytes;
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path,
                                         uint64_t max_bytes) {
  auto bytes = ReadFileBytes(path, max_bytes);
  if (!bytes.ok()) return bytes.status();
  return std::string(bytes->begin(), bytes->end());
}

namespace {
const char* FileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}
}  // namespace

namespace {
// Whether `path` (resolved) is `root` (resolved) or below it.
bool ResolvesInside(const std::filesystem::path& root,
                    const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto r = fs::weakly_canonical(root, ec);
  if (ec) return false;
  // A link is followed by hand: weakly_canonical keeps a dangling one's
  // name as it is, and a dangling link may lead anywhere once created.
  fs::path target = path;
  for (int depth = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++depth) {
    if (depth == 40) return false;  // a loop
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) return false;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  const auto p = fs::weakly_canonical(target, ec);
  if (ec) return false;
  auto [ri, pi] = std::mismatch(r.begin(), r.end(), p.begin(), p.end());
  return ri == r.end();
}
}  // namespace

absl::StatusOr<std::vector<uint8_t>> ReadFileInside(const std::string& dir,
                                                    const std::string& name,
                                                    uint64_t max_bytes) {
  const std::string path = dir + "/" + name;
  if (!ResolvesInside(dir, path)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, " leads outside ", dir,
        " (a symbolic link): a case reads only its own files; replace the "
        "link with the file itself"));
  }
  return ReadFileBytes(path, max_bytes);
}

absl::Status CheckTreeStaysInside(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    const fs::file_status link = it->symlink_status(ec);
    if (ec) break;
    const std::string path = it->path().string();
    if (fs::is_symlink(link)) {
      if (!ResolvesInside(dir, it->path())) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, " is a symbolic link that leads outside ", dir,
            ": refused, so that sharing it never copies another file of "
            "this machine (replace the link with the file itself)"));
      }
      continue;
    }
    if (!fs::is_regular_file(link) && !fs::is_directory(link)) {
      return absl::InvalidArgumentError(
          absl::StrCat(path,
                       " is neither a file nor a directory (a FIFO, device or "
                       "socket): remove it"));
    }
  }
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, ": cannot list (", ec.message(), ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadOutputFile(const std::string& path,
                                           uint64_t max_bytes) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    const int err = errno;
    return absl::NotFoundError(
        absl::StrCat(path, ": no such output (", ErrnoText(err), ")"));
  }
  if (!S_ISREG(link.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the output is ", FileKind(link.st_mode),
                     ", not a regular file; it is not read"));
  }
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) {
    const int err = errno;
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot open the output (", ErrnoText(err), ")"));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the output is ", FileKind(st.st_mode),
                     ", not a regular file; it is not read"));
  }
  ::close(fd);
  // A regular file now: the bounded reader does the rest (it re-checks the
  // size while reading, so a file that grows meanwhile stops at the cap).
  return ReadTextFile(path, max_bytes);
}

absl::Status WriteFileBytes(const std::string& path,
                            std::span<const uint8_t> bytes) {
  // Unique per process and per call: threads of one campaign may write the
  // same path at once, and must not share (and interleave in) a temporary.
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      absl::StrCat(path, ".tmp.", ::getpid(), ".", counter.fetch_add(1));
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError("create", tmp, errno);
  int err = 0;
  if (!WriteAll(fd, reinterpret_cast<const char*>(bytes.data()), bytes.size(),
                &err)) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return WriteError("write", tmp, err);
  }
  if (::close(fd) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return WriteError("write (close)", tmp, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return WriteError(absl::StrCat("rename ", tmp, " to"), path, err);
  }
  return absl::OkStatus();
}

absl::Status WriteTextFile(const std::string& path, absl::string_view text) {
  return WriteFileBytes(
      path, std::span<const uint8_t>(
                reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

absl::Status AppendTextFile(const std::string& path, absl::string_view text) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError("open for appending", path, errno);
  int err = 0;
  if (!WriteAll(fd, text.data(), text.size(), &err)) {
    ::close(fd);
    return WriteError("append to", path, err);
  }
  if (::close(fd) != 0) return WriteError("append to (close)", path, errno);
  return absl::OkStatus();
}

}  // namespace l0spv::spirv
