package server

// The conformance harness: every request the server tests send through
// testApp.do (the one helper around app.Test) and every answer they get is checked
// against api/openapi.yaml with kin-openapi. A route the server serves but
// the document lacks, an undocumented status, or a field that is not in the
// answer's schema fails the test that met it.

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/devhub/devhub/api"
)

var contract = sync.OnceValues(func() (routers.Router, error) {
	// Feeds are text to the validator: their schema is a string.
	openapi3filter.RegisterBodyDecoder("application/atom+xml", openapi3filter.FileBodyDecoder)
	// So are the small pages the newsletter's links answer.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.YAML)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// inContract reports whether a path is one the document describes: the API,
// the ROM service and the feed (the SPA's pages and assets are not).
func inContract(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/api" || strings.HasPrefix(path, "/romserv") || path == "/feed.xml" || path == "/ip" ||
		strings.HasPrefix(path, "/s/") && strings.Count(path, "/") == 3 // a share link's routes (its page is the SPA's)
}

// checkContract validates one exchange; reqBody and respBody are the bytes
// that were sent and received.
func checkContract(t *testing.T, req *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) {
	t.Helper()
	if err := contractError(req, reqBody, status, header, respBody); err != nil {
		t.Errorf("contract: %v", err)
	}
}

// contractError is checkContract's verdict.
func contractError(req *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) error {
	if !inContract(req.URL.Path) || req.Method == http.MethodOptions {
		return nil
	}
	router, err := contract()
	if err != nil {
		return fmt.Errorf("api/openapi.yaml: %w", err)
	}
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	if r.URL.Host == "" {
		r.URL.Host = "example.com"
	}
	// The router answers a trailing slash like none, and HEAD like GET.
	if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		r.URL.Path = strings.TrimSuffix(p, "/")
	}
	if r.Method == http.MethodHead {
		if _, _, err := router.FindRoute(r); err != nil {
			r.Method = http.MethodGet
		}
	}
	// The API's catch-all: a route not mounted in this test's app.
	if status == http.StatusNotFound && bytes.Contains(respBody, []byte("no such API endpoint")) {
		return nil
	}
	route, params, err := router.FindRoute(r)
	if err != nil {
		// A path the document lacks is fine only when the server refused it
		// too; serving it means an undocumented route.
		if status == http.StatusNotFound || status == http.StatusBadRequest || status == http.StatusMethodNotAllowed {
			return nil
		}
		return fmt.Errorf("%s %s answered %d but is not in api/openapi.yaml (%v)", req.Method, req.URL.Path, status, err)
	}
	reqOpts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case strings.HasPrefix(mt, "multipart/"):
		// The tests stream uploads (the harness does not keep their bytes);
		// the upload handler's own tests cover what it accepts.
		reqOpts.ExcludeRequestBody = true
	case strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"):
		// The server takes any JSON media type (RFC 6839 +json); the
		// document names application/json.
		r.Header.Set("Content-Type", "application/json")
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" {
		if reqBody, err = decoded(enc, reqBody); err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(reqBody))
		r.Header.Del("Content-Encoding")
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: reqOpts}
	// A request the document does not allow must be refused: the server
	// accepting it means the document lacks a parameter or a field.
	if rerr := openapi3filter.ValidateRequest(context.Background(), in); rerr != nil && status < 400 {
		return fmt.Errorf("%s %s answered %d to a request api/openapi.yaml does not allow:\n%v", req.Method, req.URL.String(), status, rerr)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if req.Method == http.MethodHead && r.Method == http.MethodGet {
		return nil // the GET's description holds; the body is empty by design
	}
	body, err := decoded(header.Get("Content-Encoding"), respBody)
	if err != nil {
		return err
	}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("%s %s → %d does not match api/openapi.yaml:\n%v\nbody: %.300s", req.Method, req.URL.Path, status, err, body)
	}
	return nil
}

// decoded undoes a compressed answer's Content-Encoding.
func decoded(encoding string, body []byte) ([]byte, error) {
	if len(body) == 0 {
		return body, nil // a 304 names the encoding of the variant it revalidates
	}
	var r io.Reader
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("bad gzip body: %w", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		return body, nil
	}
	return io.ReadAll(r)
}

// TestContractIsValid: the document itself is valid OpenAPI 3.1, and the
// binary serves it as JSON with a reader page.
func TestContractIsValid(t *testing.T) {
	if _, err := contract(); err != nil {
		t.Fatal(err)
	}
	ta := newTestApp(t, nil)
	resp, body := ta.do(t, get("/api/openapi.json"))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"openapi":"3.1.0"`)) {
		t.Fatalf("openapi.json: %d %.100s", resp.StatusCode, body)
	}
	resp, body = ta.do(t, get("/api/docs"))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("/api/openapi.json")) {
		t.Fatalf("docs: %d %.200s", resp.StatusCode, body)
	}
}

// The harness really fails what drifts: an extra field, an undocumented
// status, an undocumented route that answers.
func TestContractCatchesDrift(t *testing.T) {
	user := `{"id":1,"email":"a@example.com","name":"A","role":"user","createdAt":"2026-01-01T00:00:00Z"}`
	jsonHdr := http.Header{"Content-Type": {"application/json"}}
	article := `{"id":1,"slug":"a","name":"A","excerpt":"","content":"","category":"c","image_url":"",` +
		`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`
	fileList := `{"images":[],"videos":[],"audio":[],"documents":[],"other":[],` +
		`"totals":{"images":0,"videos":0,"audio":0,"documents":0,"other":0}}`
	for _, tc := range []struct {
		name, method, path string
		status             int
		body               string
		ok                 bool
		reqBody            string
	}{
		{"a documented answer", "GET", "/api/auth/profile", 200, user, true, ""},
		{"an extra field", "GET", "/api/auth/profile", 200, strings.Replace(user, `"role"`, `"passwordHash":"x","role"`, 1), false, ""},
		{"a missing field", "GET", "/api/auth/profile", 200, `{"id":1}`, false, ""},
		{"an undocumented status", "GET", "/api/auth/profile", 418, `{"status":418,"message":"x","data":{}}`, false, ""},
		{"an undocumented route that answers", "GET", "/api/secret-route", 200, `{}`, false, ""},
		{"an undocumented route refused", "GET", "/api/secret-route", 404, `{"status":404,"message":"x","data":{}}`, true, ""},
		{"the error shape", "GET", "/api/auth/profile", 401, `{"status":401,"message":"x","data":{}}`, true, ""},
		{"a broken error shape", "GET", "/api/auth/profile", 401, `{"error":"x"}`, false, ""},
		{"a request the document refuses, accepted", "POST", "/api/blog", 201, article, false, `{"name":5}`},
		{"a request the document refuses, refused", "POST", "/api/blog", 400, `{"status":400,"message":"x","data":{}}`, true, `{"name":5}`},
		{"a query value the document refuses, accepted", "GET", "/api/files?type=pictures", 200, fileList, false, ""},
		{"an undocumented field in an article", "POST", "/api/blog", 201, strings.Replace(article, `"id"`, `"draft":true,"id"`, 1), false, `{"name":"A"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.reqBody != "" {
				body = strings.NewReader(tc.reqBody)
			}
			req, _ := http.NewRequest(tc.method, "http://example.com"+tc.path, body)
			if tc.reqBody != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			err := contractError(req, []byte(tc.reqBody), tc.status, jsonHdr, []byte(tc.body))
			if (err == nil) != tc.ok {
				t.Fatalf("verdict %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
