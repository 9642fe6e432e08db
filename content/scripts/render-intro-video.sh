#!/usr/bin/env bash
# Renders media/site-intro.webm (6 s, 640x360, VP9, no audio) with Debian's ffmpeg:
#   apt-get install -y ffmpeg fonts-dejavu-core && bash content/scripts/render-intro-video.sh
set -euo pipefail
cd "$(dirname "$0")/.."
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
line() { echo "drawtext=fontfile=$font:text='$1':fontcolor=white:fontsize=$2:x=(w-text_w)/2:y=$3${4:+:enable='gte(t,$4)'}"; }
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "gradients=s=640x360:d=6:speed=0.015:c0=0x0b5cad:c1=0x2a9d8f:c2=0x264653:n=3" \
  -vf "$(line 'KHS Competence' 44 90),$(line 'Search articles' 28 180 1),$(line 'Keep a watchlist' 28 225 2.5),$(line 'Answer surveys' 28 270 4)" \
  -r 24 -c:v libvpx-vp9 -b:v 60k -an media/site-intro.webm
