package reference

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// redirectError refuses an HTTP redirect: the reference never follows one
// (LA-NET-07).
type redirectError struct {
	status   int
	location string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("the server answered %d redirecting to %q; redirects are refused", e.status, e.location)
}

// newHTTPClient returns the HTTP client of one http server entry: it adds
// the entry's headers to every request and refuses every redirect.
func newHTTPClient(cfg ServerConfig, c *connection) *http.Client {
	return &http.Client{
		Transport: &headerTransport{base: http.DefaultTransport.(*http.Transport).Clone(), headers: cfg.Headers, conn: c},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			return &redirectError{status: status, location: req.URL.String()}
		},
	}
}

// headerTransport adds configured headers to every request (LA-TRN-06) and
// reports cancellation notices to its connection.
type headerTransport struct {
	base    *http.Transport
	headers map[string]string
	conn    *connection
}

// maxNoticeBody bounds the request bodies inspected for cancellation
// notices; notices are tiny, calls may be large.
const maxNoticeBody = 4 << 10

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	notice := false
	if req.Body != nil && req.GetBody != nil && req.ContentLength >= 0 && req.ContentLength <= maxNoticeBody {
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, maxNoticeBody))
			body.Close()
			notice = bytes.Contains(b, cancelledMarker)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if notice && err == nil {
		t.conn.noticeSent()
	}
	return resp, err
}

// CloseIdleConnections closes the transport's idle connections.
func (t *headerTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }
