#!/bin/bash
# Gradescope's autograder setup: installs Reduction Lab from the .deb in the autograder's zip
# (next to this file, with run_autograder and a file named `exercise` holding the exercise's id).
set -euo pipefail
source_dir="$(cd "$(dirname "$0")" && pwd)"
apt-get update
apt-get install -y "$source_dir"/reduction-lab_*.deb
