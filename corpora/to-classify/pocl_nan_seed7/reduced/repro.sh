#!/bin/sh
# exit 1 = the finding reproduces
'/work/main/build/default/l0spv-fuzz' check "$(dirname "$0")" '--target=opencl:Portable Computing Language' '--signature=mismatch:opencl:nan' --strict --ref_steps=1000000
