#!/bin/sh
# regenerate.sh - remake the training-step tables in this directory with
# tplan-import (Debian's python3-torch 1.13 and python3-torchvision 0.14).
# Run from anywhere; each table is one forward + backward step of a
# torchvision model with random weights, aliases folded, with uses.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
import="$here/../../../userspace/python/bin/tplan-import"

table() {	# table MODEL BATCH
	"$import" torch "torchvision.models:$1" --input "$2,3,224,224" \
		--training --fold-aliases -o "$here/$1_b$2.csv"
}

for model in resnet50 mobilenet_v2 efficientnet_b0 densenet121 googlenet \
	     convnext_tiny shufflenet_v2_x1_0 regnet_y_400mf; do
	table "$model" 1
done
for model in resnet50 efficientnet_b0; do
	table "$model" 8
done
