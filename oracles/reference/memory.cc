#include "oracles/reference/memory.h"

#include <cstring>

#include "absl/strings/str_format.h"

namespace l0spv::oracles::reference {

const char* FaultName(Fault f) {
  switch (f) {
    case Fault::kNone:
      return "no fault";
    case Fault::kNull:
      return "null pointer dereference";
    case Fault::kForged:
      return "pointer to no allocation";
    case Fault::kDangling:
      return "use of a dangling pointer";
    case Fault::kOutOfBounds:
      return "out-of-bounds";
    case Fault::kMisaligned:
      return "misaligned";
    case Fault::kReadOnly:
      return "write to read-only memory";
    case Fault::kOtherPrivate:
      return "access to another work-item's private memory";
  }
  return "?";
}

uint32_t Memory::Add(uint8_t* data, uint64_t size, uint8_t storage_class,
                     uint32_t owner, bool read_only) {
  // Ids fit in 32 bits; the record itself is charged too.
  if (records_.size() >= 0xFFFFFFF0u || !Charge(sizeof(Allocation))) return 0;
  Allocation a;
  a.data = data;
  a.size = size;
  a.owner = owner;
  a.storage_class = storage_class;
  a.alive = true;
  a.read_only = read_only;
  records_.push_back(a);
  return static_cast<uint32_t>(records_.size() - 1);
}

uint32_t Memory::AddOwned(uint64_t size, uint8_t storage_class,
                          bool read_only) {
  if (size >= (uint64_t{1} << 32) || !Charge(size)) return 0;
  auto bytes = std::make_unique<uint8_t[]>(size ? size : 1);
  std::memset(bytes.get(), 0, size ? size : 1);
  uint32_t id = Add(bytes.get(), size, storage_class, kSharedOwner, read_only);
  if (id == 0) {
    Uncharge(size);
    return 0;
  }
  owned_.push_back(std::move(bytes));
  return id;
}

std::string Memory::Describe(uint64_t p) const {
  const uint32_t id = PointerId(p);
  const uint32_t off = PointerOffset(p);
  if (id == 0) return absl::StrFormat("null pointer (+%u)", off);
  if (id >= records_.size()) {
    return absl::StrFormat("address 0x%016x (no such allocation #%u)", p, id);
  }
  const Allocation& a = records_[id];
  const char* sc = "?";
  switch (a.storage_class) {
    case 0:
      sc = "UniformConstant";
      break;
    case 1:
      sc = "Input";
      break;
    case 4:
      sc = "Workgroup";
      break;
    case 5:
      sc = "CrossWorkgroup";
      break;
    case 7:
      sc = "Function";
      break;
  }
  return absl::StrFormat("offset %u of %s allocation #%u (%u bytes%s)", off, sc,
                         id, a.size, a.alive ? "" : ", freed");
}

uint8_t* Stack::Push(size_t bytes, Memory& memory) {
  bytes = (bytes + 15) & ~size_t{15};
  if (bytes == 0) bytes = 16;
  while (current_ < chunks_.size()) {
    Chunk& c = chunks_[current_];
    if (c.capacity - c.used >= bytes) {
      uint8_t* p = c.data.get() + c.used;
      c.used += bytes;
      std::memset(p, 0, bytes);
      return p;
    }
    if (current_ + 1 >= chunks_.size()) break;
    ++current_;
    chunks_[current_].used = 0;
  }
  const size_t capacity = bytes > 16384 ? bytes : 16384;
  if (!memory.Charge(capacity)) return nullptr;
  Chunk c;
  c.data = std::make_unique<uint8_t[]>(capacity);
  c.capacity = capacity;
  c.used = bytes;
  std::memset(c.data.get(), 0, bytes);
  chunks_.push_back(std::move(c));
  current_ = chunks_.size() - 1;
  return chunks_.back().data.get();
}

void Stack::Release(Memory& memory) {
  for (const Chunk& c : chunks_) memory.Uncharge(c.capacity);
  chunks_.clear();
  current_ = 0;
}

}  // namespace l0spv::oracles::reference
