#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds cut from the real fixtures (tests/fixtures, sample-data):
# small files whole, large ones as their first and a middle piece of at most 4 KiB, cut at line
# ends, so the fuzzer starts from real shapes and stays fast. Gzipped fixtures are unpacked.
set -eu  # no pipefail: `head` closes its pipe early on purpose
cd "$(dirname "$0")/.."
root=.
rm -rf fuzz/corpus
mkdir -p fuzz/corpus/{lst,fdbs,lfts_dump,ibprof,host_map,rail,ibnetdiscover,ports_list,ibroute,db_csv,pfprof,lines,counters,loads_file,streamed,loads_mapped,ar,perfmgr}

# cut FILE TARGET: the first 4 KiB and a 4 KiB piece from the middle, whole lines only.
cut_into() {
  local file=$1 target=$2 name tmp lines
  name=$(echo "$file" | tr '/' '_')
  tmp=$(mktemp)
  if [[ $file == *.gz ]]; then zcat "$root/$file" > "$tmp"; else cat "$root/$file" > "$tmp"; fi
  lines=$(wc -l < "$tmp")
  head -c 4096 "$tmp" | sed '$d' > "fuzz/corpus/$target/$name.head"
  if ((lines > 80)); then
    tail -n +$((lines / 2)) "$tmp" | head -c 4096 | sed '$d' > "fuzz/corpus/$target/$name.middle"
  fi
  rm -f "$tmp"
}

for f in tests/fixtures/fragments/*.lst benches/data/tsubame/rail0/opensm-subnet.lst.gz \
         tests/fixtures/testbed/opensm-subnet.lst tests/fixtures/lmc1/opensm-subnet.lst \
         sample-data/tworail/rail0/opensm-subnet.lst.gz; do
  cut_into "$f" lst
done
for f in tests/fixtures/fragments/opensm.fdbs tests/fixtures/testbed/opensm.fdbs tests/fixtures/lmc1/opensm.fdbs \
         benches/data/tsubame/rail0/opensm.fdbs.gz sample-data/tworail/rail1/opensm.fdbs.gz; do
  cut_into "$f" fdbs
done
for f in tests/fixtures/fragments/opensm-lfts.dump tests/fixtures/testbed/opensm-lfts.dump \
         tests/fixtures/lmc1/opensm-lfts.dump sample-data/tworail/rail0/opensm-lfts.dump.gz; do
  cut_into "$f" lfts_dump
done
for f in sample-data/testbed/alltoall.ibprof sample-data/tworail/bcast-both-rails.ibprof \
         sample-data/tworail/bcast-rail0-only.ibprof sample-data/tworail/samplesort.ibprof.gz; do
  cut_into "$f" ibprof
done
for f in tests/fixtures/formats/{testbed,lmc1}/ibnetdiscover.txt tests/fixtures/formats/tworail-rail0/ibnetdiscover.txt.gz \
         benches/data/tsubame/rail0/ibnetdiscover.txt.gz; do
  cut_into "$f" ibnetdiscover
done
for f in tests/fixtures/formats/{testbed,lmc1}/ibnetdiscover-p.txt tests/fixtures/formats/tworail-rail0/ibnetdiscover-p.txt.gz \
         benches/data/tsubame/rail0/ibnetdiscover-p.txt.gz; do
  cut_into "$f" ports_list
done
for f in tests/fixtures/formats/{testbed,lmc1}/dump_fts.txt tests/fixtures/formats/testbed/ibroute/lid-2.txt \
         tests/fixtures/formats/lmc1/ibroute/lid-4.txt tests/fixtures/formats/tworail-rail0/ibroute-all.txt.gz \
         tests/fixtures/formats/tworail-rail0/dump_fts.txt.gz; do
  cut_into "$f" ibroute
done
# db_csv: every section matters, so besides the cuts, each fixture shrunk to the header and first
# rows of every section.
for f in tests/fixtures/formats/testbed/ibdiagnet2/ibdiagnet2.db_csv tests/fixtures/formats/tworail-rail0/ibdiagnet2/ibdiagnet2.db_csv.gz \
         benches/data/tsubame/rail0/ibdiagnet2/ibdiagnet2.db_csv.gz; do
  cut_into "$f" db_csv
  zcat -f "$root/$f" | awk '/^START_/ {n = 0} /^END_/ {print; next} {if (n++ < 5) print}' | head -c 4096 \
    > "fuzz/corpus/db_csv/$(echo "$f" | tr '/' '_').sections"
done
for f in tests/fixtures/pfprof/*.json; do cp "$f" fuzz/corpus/pfprof/; done
# PFProf's older phase form, and an array of two ranks.
printf '{"n_procs": 3, "processor_name": "n0001", "rank": 0, "duration": 1.5, "phases": [{"tx_bytes": [0, 5, 7], "rx_bytes": [0, 1, 2]}, {"tx_bytes": [0, 6.5, 7]}]}' \
  > fuzz/corpus/pfprof/phases.json
printf '[{"n_procs": 2, "processor_name": "a", "rank": 0, "tx_bytes": [0, 9]}, {"n_procs": 2, "processor_name": "b", "rank": 1, "tx_bytes": [4, 0], "rx_bytes": [9, 0]}]' \
  > fuzz/corpus/pfprof/array.json
# A profile with every optional field and quoting, as the format document shows it.
cat > fuzz/corpus/ibprof/all-fields.ibprof <<'PROFILE'
ibprof 1
job ranks 4 mpi "Open MPI 4.1 \"x\" #1" source peruse
rank 0 host "n 0001" pid 12 starttime 1700000000.5
port 0 device mlx5_0 portnum 1 guid 0x0002c903000a0001 lid 0x0001 lmc 2
region 1 name "a # b" dumptime 1700000001.000001
peer 1 sent 10 recv 20
lid 0 0x0004 sent 5 recv 0
region 2 dumptime 1700000002
peer 1 sent 11 recv 20
rank 1 host n0002 starttime 1700000000
PROFILE
printf 'node-a n0001\n# comment\nnode-b n0002 # trailing\n\nbad line here\n' > fuzz/corpus/host_map/basic.map
# The rail target takes a link list and a table file separated by a NUL byte.
{ cat "$root/tests/fixtures/fragments/opensm-subnet.lst"; printf '\0'; cat "$root/tests/fixtures/fragments/opensm.fdbs"; } \
  > fuzz/corpus/rail/fragments-fdbs
{ cat "$root/tests/fixtures/fragments/opensm-subnet.lst"; printf '\0'; cat "$root/tests/fixtures/fragments/opensm-lfts.dump"; } \
  > fuzz/corpus/rail/fragments-lfts
find fuzz/corpus -type f -empty -delete
# The line reader: a read size byte, then text with CRLF ends, invalid UTF-8, escapes and no
# final line end, and the head of a real link list.
printf '\003a\r\nb\xe9c\n\033[2J\n\nlast' > fuzz/corpus/lines/mixed
{ printf '\007'; zcat "$root/sample-data/tworail/rail0/opensm-subnet.lst.gz" | head -c 4000; } > fuzz/corpus/lines/lst-head
# Counter snapshots as the tools print them, and a loads file as `shoal convert` writes one.
for f in tests/fixtures/counters/testbed/*.txt tests/fixtures/counters/testbed/*.db_csv \
         tests/fixtures/counters/testbed/*.pm tests/fixtures/counters/testbed/*.prom; do
  cut_into "$f" counters
done
printf '# region 1 name "a"\nrail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n0,0x0002c9030001000a,1,0x0002c902000a0001,1,1,10,20\n0,0x0002c9030001000a,1,0x0002c902000a0001,1,total,10,20\n' \
  > fuzz/corpus/loads_file/rows.csv
# The streamed-versus-whole target reads every streaming format from the same bytes.
cp fuzz/corpus/ibprof/* fuzz/corpus/lst/* fuzz/corpus/ibroute/* fuzz/corpus/streamed/
cp "$root/tests/fixtures/boxfish/tiny/tiny_links.yaml" fuzz/corpus/streamed/
# Issue 24's targets: loads files on the two-level fabric the target maps them onto (GUIDs
# 0x1000 spine, 0x2000.. leaves, 0x100000.. hosts), the hostile corpus's loads files, the AR
# fixtures and the PerfMgr dumps.
printf '# topk,3\n# intra_node,total,18446744073709551615\n# unplaced,1,5\n# undelivered,total,0,loop,7\nrail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a\n0,0x2000,1,0x100000,1,1,"md, 2",10,20\n0,0x100000,1,0x2000,1,1,\x27-x,10,20\n0,0x2000,2,0x1000,1,total,all,18446744073709551615,3\n# top,total,0,0x2000,1,0x100000,1,a_to_b,n0001,"n,2",100\n' \
  > fuzz/corpus/loads_mapped/twolevel.csv
for f in tests/hostile/loads-*/*.csv; do cp "$f" "fuzz/corpus/loads_mapped/$(echo "$f" | tr '/' '_')"; done
cut_into tests/fixtures/ar/railopt/ibdiagnet2.far ar
for f in tests/fixtures/counters/testbed/perfmgr*.txt; do cut_into "$f" perfmgr; done
cp tests/hostile/counters-perfmgr-tab-in-description/pm.log fuzz/corpus/perfmgr/tab.log

for d in fuzz/corpus/*; do echo "$d: $(ls "$d" | wc -l) seeds"; done
