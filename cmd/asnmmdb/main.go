// Command asnmmdb turns the ASN ranges of the @ip-location-db/asn npm package (CSV lines
// "first,last,asn,organisation", CC BY 4.0 / public routing data) into a MaxMind-format database
// shaped like GeoLite2-ASN (autonomous_system_number, autonomous_system_organization), which
// geoip.asn_database reads. The registry publishes that package only as CSV; `make geoip-extra`
// runs this once after the checksum-verified download (.ci/fetch-geoip-extra.sh).
//
//	go run ./cmd/asnmmdb -o asn.mmdb asn-ipv4.csv asn-ipv6.csv
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

func main() {
	out := flag.String("o", "asn.mmdb", "database to write")
	flag.Parse()
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "asnmmdb:", err)
		os.Exit(1)
	}
}

func run(out string, inputs []string) error {
	if len(inputs) == 0 {
		return errors.New("no CSV file given")
	}
	tree, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType:            "GeoLite2-ASN",
		Description:             map[string]string{"en": "ASN ranges from @ip-location-db/asn"},
		IPVersion:               6,
		RecordSize:              28,
		IncludeReservedNetworks: false,
	})
	if err != nil {
		return err
	}
	for _, name := range inputs {
		if err := insertCSV(tree, name); err != nil {
			return err
		}
	}
	// Written next to the target and renamed: a failed run leaves no half database.
	tmp := out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := tree.WriteTo(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, out)
}

func insertCSV(tree *mmdbwriter.Tree, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = 4
	skipped := 0
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			if skipped > 0 {
				fmt.Fprintf(os.Stderr, "asnmmdb: %s: %d reserved ranges left out\n", name, skipped)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		first, last := net.ParseIP(rec[0]), net.ParseIP(rec[1])
		asn, err := strconv.ParseUint(rec[2], 10, 32)
		if first == nil || last == nil || err != nil {
			return fmt.Errorf("%s:%d: not \"first,last,asn,organisation\": %q", name, line, rec)
		}
		value := mmdbtype.Map{
			"autonomous_system_number":       mmdbtype.Uint32(asn),
			"autonomous_system_organization": mmdbtype.String(rec[3]),
		}
		if err := tree.InsertRange(first, last, value); err != nil {
			// Reserved ranges the writer refuses (IncludeReservedNetworks off) carry no ASN anyway;
			// they are counted, not hidden.
			skipped++
		}
	}
}
