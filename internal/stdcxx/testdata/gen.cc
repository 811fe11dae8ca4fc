// gen.cc prints libstdcxx.json: what GNU libstdc++ itself does with the
// inputs package stdcxx's tests replay. Build and run it with the g++ whose
// libstdc++ PyTorch's kernels were built with (GCC 12):
//
//	g++ -O1 -std=c++17 -o /tmp/stdcxx_gen gen.cc && /tmp/stdcxx_gen > libstdcxx.json
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <unordered_set>
#include <vector>

static std::mt19937_64 rng(20261129);

static double pick(double nanRate) {
  static const double pool[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 1e300, -1e-310, INFINITY, -INFINITY};
  std::uniform_real_distribution<double> u(0, 1);
  if (u(rng) < nanRate) return NAN;
  if (u(rng) < 0.5) return pool[rng() % (sizeof pool / sizeof pool[0])];
  return std::round(std::uniform_real_distribution<double>(-50, 50)(rng));
}

static void printValues(const std::vector<double>& v) {
  printf("[");
  for (size_t i = 0; i < v.size(); i++) {
    uint64_t b;
    std::memcpy(&b, &v[i], 8);
    printf("%s\"%016llx\"", i ? "," : "", (unsigned long long)b);
  }
  printf("]");
}

static void printInts(const std::vector<long>& v) {
  printf("[");
  for (size_t i = 0; i < v.size(); i++) printf("%s%ld", i ? "," : "", v[i]);
  printf("]");
}

// sortCase prints the order std::sort (or, with heap, the heap sort
// std::partial_sort of the whole range is) leaves the indices of v in,
// under the < of their values, and the number of comparisons it made.
static void sortCase(const std::vector<double>& v, bool comma, bool heap = false) {
  std::vector<long> idx(v.size());
  for (size_t i = 0; i < idx.size(); i++) idx[i] = i;
  long count = 0;
  auto less = [&](long a, long b) { count++; return v[a] < v[b]; };
  if (heap) std::partial_sort(idx.begin(), idx.end(), idx.end(), less);
  else std::sort(idx.begin(), idx.end(), less);
  printf("%s{\"values\":", comma ? ",\n" : "");
  printValues(v);
  printf(",\"order\":");
  printInts(idx);
  printf(",\"comparisons\":%ld,\"heap\":%s}", count, heap ? "true" : "false");
}

// killer returns McIlroy's adversary input for std::sort of n elements:
// values that drive its quicksort to the depth limit.
static std::vector<double> killer(long n) {
  std::vector<long> val(n, n), idx(n);
  long gas = n, nsolid = 0, candidate = 0;
  for (long i = 0; i < n; i++) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](long x, long y) {
    if (val[x] == gas && val[y] == gas) {
      if (x == candidate) val[x] = nsolid++;
      else val[y] = nsolid++;
    }
    if (val[x] == gas) candidate = x;
    else if (val[y] == gas) candidate = y;
    return val[x] < val[y];
  });
  std::vector<double> v(n);
  for (long i = 0; i < n; i++) v[i] = double(val[i]);
  return v;
}

template <typename F>
static void setCase(const std::vector<double>& v, bool comma) {
  std::vector<F> keys(v.begin(), v.end());
  std::unordered_set<F> set(keys.data(), keys.data() + keys.size());
  std::vector<double> order(set.begin(), set.end());
  printf("%s{\"float32\":%s,\"values\":", comma ? ",\n" : "", sizeof(F) == 4 ? "true" : "false");
  printValues(v);
  printf(",\"order\":");
  printValues(order);
  printf("}");
}

int main() {
  printf("{\"sort\":[\n");
  bool comma = false;
  for (long n : {0, 1, 2, 3, 5, 15, 16, 17, 18, 31, 33, 64, 200}) {
    for (double rate : {0.0, 0.1, 0.5, 0.95}) {
      std::vector<double> v(n);
      for (auto& x : v) x = pick(rate);
      sortCase(v, comma);
      comma = true;
    }
  }
  for (long n : {40, 100, 300}) {
    std::vector<double> v = killer(n);
    sortCase(v, true);
    for (long i = 0; i < n; i += 7) v[i] = NAN;
    sortCase(v, true);
  }
  for (long n : {2, 3, 4, 7, 8, 33, 100}) {
    for (double rate : {0.0, 0.2, 0.6}) {
      std::vector<double> v(n);
      for (auto& x : v) x = pick(rate);
      sortCase(v, true, true);
    }
  }
  printf("\n],\"set\":[\n");
  comma = false;
  for (long n : {1, 2, 5, 12, 13, 14, 30, 100, 400}) {
    for (double rate : {0.0, 0.3, 0.9}) {
      std::vector<double> v(n);
      for (auto& x : v) x = pick(rate);
      setCase<double>(v, comma);
      comma = true;
      setCase<float>(v, true);
    }
  }
  printf("\n]}\n");
}
