# Benchmarks/driver.sh: sourced by the benchmark scripts. Builds an in-process driver: the
# project's library targets the driver needs, each as a static library with its module
# (swiftc -O -wmo), then the driver itself against them.
#
#   build_driver DIR NAME MAIN.swift MODULE...   # MODULEs in dependency order, e.g.
#   build_driver "$OUT/plan-build" plan-bench "$ROOT/Benchmarks/plan-main.swift" TransitModel HostSystem Routing SQLite ZIP GTFS
#
# Needs ROOT (the package root). Writes DIR/NAME; output of the compiler goes to stdout/stderr.
build_driver() {
  local dir=$1 name=$2 main=$3
  shift 3
  local modules=("$@") links=() module sources
  mkdir -p "$dir"
  for module in "${modules[@]}"; do
    mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | sort)
    swiftc -O -wmo -parse-as-library -emit-library -static -module-name "$module" -package-name transit \
      -I "$dir" -I "$ROOT/Sources/CSQLite" -I "$ROOT/Sources/CZlib" -I "$ROOT/Sources/CCurl" -I "$ROOT/Sources/CCrypto" \
      -emit-module -emit-module-path "$dir/$module.swiftmodule" "${sources[@]}" -o "$dir/lib$module.a" || return 1
    links=("-l$module" "${links[@]}")
  done
  swiftc -O -parse-as-library -module-name "${name//-/_}" -I "$dir" -I "$ROOT/Sources/CSQLite" \
    -I "$ROOT/Sources/CZlib" -I "$ROOT/Sources/CCurl" -I "$ROOT/Sources/CCrypto" "$main" -L "$dir" "${links[@]}" -lsqlite3 -lz -lcurl -o "$dir/$name"
}
