package core

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseTransport is go-sdk's HTTP+SSE client transport with a stream that
// outlives the connect call: go-sdk ties the GET of the event stream to
// the context given to Connect, which the reference bounds by the connect
// timeout. The stream is ended by closing the connection instead; ctx
// still bounds connecting.
type sseTransport struct{ t *mcp.SSEClientTransport }

func (s sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	c, err := s.t.Connect(lctx)
	if !stop() {
		// ctx ended while connecting.
		cancel()
		if err == nil {
			c.Close()
		}
		return nil, context.Cause(ctx)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &sseConnection{Connection: c, cancel: cancel}, nil
}

// sseConnection ends its event stream when it closes.
type sseConnection struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c *sseConnection) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}
