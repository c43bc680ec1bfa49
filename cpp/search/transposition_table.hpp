// The solver's transposition tables: what a search knows of positions, by 64-bit key,
// shared by the threads of one solve.
//
// Buckets of four entries, each the key, an `Info` and the size class of the searches
// behind it (log2 of their nodes), in 8 bytes more than the Info: the key's lowest six
// bits, which its bucket tells, make room for the size class. A full bucket gives up the entry with the smallest
// search (Info::kKeepsLatest: even for a smaller one). The table uses the first 1 MB of
// its memory and doubles, up to its bound, whenever it is half full: a small search
// then stays in cache and touches few pages (a large table costs a page fault per page
// and a cache miss per probe, which slowed small searches several-fold). It doubles in
// place: the memory for the bound is taken at once (mapped, and untouched until used),
// and an entry moves only when its key's next bit sends it to the new half, so each
// page is faulted in once (rehashing into a new table each time faulted in twice the
// bound: a tenth of a hard solve's time on a VM whose fresh pages come slowly). Before
// threads share it, fix() grows it for good.
//
// Threads read and write entries without locks (Hyatt and Mann's lockless hashing): an
// entry's words are atomics, and its first holds the key XOR the others (then the size
// class in its lowest bits), so a reader that meets the words of two different writes
// sees a key that matches no probe. A lost
// write only loses something known; what is read was written whole.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <type_traits>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace ddz {

template <class Info>
class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t max_bytes) {
    while (max_buckets_ * 2 * sizeof(Bucket) <= max_bytes) max_buckets_ *= 2;
    allocate();
  }
  ~TranspositionTable() { release(); }
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Starts loading `key`'s bucket into the cache: a probe of a large table is a cache
  // miss, and the probes of a node's children overlap when they are all issued first.
  void prefetch(std::uint64_t key) const {
    const char* const b = reinterpret_cast<const char*>(&bucket(key));
    for (std::size_t line = 0; line < sizeof(Bucket); line += 64) __builtin_prefetch(b + line);
  }

  // The Info stored for `key`.
  std::optional<Info> find(std::uint64_t key) const {
    for (const Entry& e : bucket(key).entries) {
      const Read r = read(e, key);
      if (r.size && r.key == key) return r.info;
    }
    return std::nullopt;
  }

  // Applies `change` (a callable taking Info&) to what is stored for `key` (Info{} when
  // nothing is) and stores the result, as learned by a search of `nodes` nodes; unless
  // the bucket keeps larger searches.
  template <class Change>
  void update(std::uint64_t key, std::int64_t nodes, Change&& change) {
    if (!fixed_ && used_ * 2 > (mask_ + 1) * 4 && mask_ + 1 < max_buckets_) double_in_place();
    std::uint8_t size = 1;
    while (size < 63 && (std::int64_t{1} << size) < nodes) ++size;
    Bucket& b = bucket(key);
    Entry* victim = nullptr;
    std::uint8_t victim_size = 0;
    for (Entry& e : b.entries) {
      const Read r = read(e, key);
      if (r.size && r.key == key) {
        Info info = r.info;
        change(info);
        return write(e, key, info, std::max(r.size, size));
      }
      if (!r.size) {
        if (!fixed_) ++used_;
        Info info{};
        change(info);
        return write(e, key, info, size);
      }
      if (!victim || r.size < victim_size) {
        victim = &e;
        victim_size = r.size;
      }
    }
    if (victim_size > size && !Info::kKeepsLatest) return;
    Info info{};
    change(info);
    write(*victim, key, info, size);
  }

  // Grows the table to its bound (or keeps its size: `to_bound` false, for a table the
  // threads will not write) and keeps it there: from now on threads may share it. The
  // entries moved land all over the bound, and the kernel clears each page one first
  // writes to (about a second a gigabyte with huge pages): `stop` is asked every 64 of
  // them, and false is returned when it says yes, the table then half grown and good
  // for nothing but its release.
  template <class Stop>
  bool fix(bool to_bound, Stop&& stop) {
    fixed_ = true;
    return !to_bound || grow_to(max_buckets_, stop);
  }
  void fix(bool to_bound) {
    fix(to_bound, [] { return false; });
  }

 private:
  static_assert(std::is_trivially_copyable_v<Info> && sizeof(Info) <= 16);
  // The words of an entry after its first: the Info.
  static constexpr std::size_t kWords = (sizeof(Info) + 7) / 8;
  using Words = std::array<std::uint64_t, kWords>;
  static constexpr std::uint64_t kSizeBits = 63;  // the check word's bits for the size class

  struct Entry {
    std::atomic<std::uint64_t> check;  // the key XOR the words, its lowest bits the size class
    std::array<std::atomic<std::uint64_t>, kWords> words;
  };
  struct Bucket {
    Entry entries[4];
  };
  struct Read {
    std::uint64_t key;
    Info info;
    std::uint8_t size;  // 0: empty (or torn)
  };
  static constexpr std::size_t kMinBuckets = std::bit_floor(std::size_t{8192} / sizeof(Bucket));
  static_assert(kMinBuckets > kSizeBits);  // a bucket's index tells the key's size-class bits
  static constexpr std::size_t kFirstBuckets = std::bit_floor((std::size_t{1} << 20) / sizeof(Bucket));
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;  // x86-64's, and the common arm64 one

  // The entry `e` of the bucket of `probe` (a key that indexes it): its key (the size
  // class's bits taken from `probe`, as the bucket holds only keys that share them).
  static Read read(const Entry& e, std::uint64_t probe) {
    Words w;
    const std::uint64_t check = e.check.load(std::memory_order_relaxed);
    std::uint64_t key = check;
    for (std::size_t i = 0; i < kWords; ++i) {
      w[i] = e.words[i].load(std::memory_order_relaxed);
      key ^= w[i];
    }
    Read r{(key & ~kSizeBits) | (probe & kSizeBits), {}, static_cast<std::uint8_t>(check & kSizeBits)};
    std::memcpy(static_cast<void*>(&r.info), w.data(), sizeof(Info));  // trivially copyable
    return r;
  }

  static void write(Entry& e, std::uint64_t key, const Info& info, std::uint8_t size) {
    Words w{};
    std::memcpy(w.data(), &info, sizeof(Info));
    for (std::size_t i = 0; i < kWords; ++i) {
      e.words[i].store(w[i], std::memory_order_relaxed);
      key ^= w[i];
    }
    e.check.store((key & ~kSizeBits) | size, std::memory_order_relaxed);
  }

  Bucket& bucket(std::uint64_t key) const { return buckets_[key & mask_]; }

  // The memory for the bound, the table at its first size. A bound of a huge page or
  // more is mapped: fresh anonymous pages are zero and cost nothing until touched
  // (calloc's block may come from the heap instead, and be zeroed whole, once glibc's
  // threshold for mapping has risen past its size), and the buckets start on a huge
  // page's boundary: probes land anywhere in the table, and with 4 KB pages each is a
  // TLB miss as well as a cache miss. A smaller one (the heuristic's endgame searches, a
  // few a decision) comes from calloc, 64-byte aligned, without a system call. A zeroed
  // entry is empty (size class 0).
  void allocate() {
    const std::size_t bytes = max_buckets_ * sizeof(Bucket);
    std::size_t align = 64;
#if defined(MAP_ANONYMOUS)
    if (bytes >= kHugePage) {
      align = kHugePage;
      mapped_bytes_ = bytes + align;
      raw_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (raw_ == MAP_FAILED) raw_ = nullptr;
    }
#endif
    if (!mapped_bytes_) raw_ = std::calloc(1, bytes + align);
    if (!raw_) throw std::bad_alloc();
    const auto address = reinterpret_cast<std::uintptr_t>(raw_);
    buckets_ = reinterpret_cast<Bucket*>((address + align - 1) & ~std::uintptr_t{align - 1});
#if defined(MADV_HUGEPAGE)
    if (align == kHugePage) madvise(buckets_, bytes, MADV_HUGEPAGE);  // a hint, where the kernel has them
#endif
    mask_ = std::min(max_buckets_, kFirstBuckets) - 1;
  }

  void release() {
#if defined(MAP_ANONYMOUS)
    if (mapped_bytes_) return static_cast<void>(munmap(raw_, mapped_bytes_));
#endif
    std::free(raw_);
  }

  void double_in_place() {
    grow_to(2 * (mask_ + 1), [] { return false; });
  }

  // Grows the table to `buckets` (a power of two) in one pass over the buckets it has:
  // bucket i's entries go to bucket key & (buckets - 1), which is i or one of the untouched
  // buckets i + k x the old size, and close up at the front of it in their order, as a
  // rehash would place them (update() takes the first empty entry for a new key, so an
  // entry behind a hole would be stored twice). A jump to the bound costs the old size,
  // not the bound: doubling step by step read every bucket up to it, a second a gigabyte,
  // with neither the clock nor Ctrl-C looked at.
  template <class Stop>
  bool grow_to(std::size_t buckets, Stop&& stop) {
    const std::size_t old = mask_ + 1;
    if (buckets <= old) return true;
    const std::size_t mask = buckets - 1;
    std::size_t moved = 0;
    for (std::size_t i = 0; i < old; ++i) {
      std::array<Read, 4> held;
      std::size_t count = 0;
      for (Entry& e : buckets_[i].entries) {
        const Read r = read(e, i);
        if (!r.size) continue;
        held[count++] = r;
        e.check.store(0, std::memory_order_relaxed);  // size class 0: empty, unless rewritten
      }
      for (std::size_t k = 0; k < count; ++k) {
        Entry* slot = buckets_[held[k].key & mask].entries;
        while (read(*slot, i).size) ++slot;  // a bucket holds at most the four that were in bucket i
        write(*slot, held[k].key, held[k].info, held[k].size);
        if (++moved % 64 == 0 && stop()) return false;
      }
    }
    mask_ = mask;
    return true;
  }

  void* raw_ = nullptr;  // the memory taken, for release
  std::size_t mapped_bytes_ = 0;  // its size, when mapped
  Bucket* buckets_ = nullptr;
  std::size_t mask_ = 0;
  std::size_t max_buckets_ = kMinBuckets;
  std::size_t used_ = 0;  // entries in use, while the table may grow
  bool fixed_ = false;
};

}  // namespace ddz
