package blade_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpconform/mcpconform/reference"
	"github.com/mcpconform/mcpconform/reference/blade"
)

// An in-process server beside nothing else: its tool runs in this process
// with the model's arguments, the schema's default filled in, and no
// child process is started.
func ExampleCreateSDKMCPServer() {
	ctx := context.Background()
	weather, err := blade.Tool("get-weather", "查询指定城市的当前天气",
		json.RawMessage(`{"type":"object","properties":{
			"city":{"type":"string","description":"城市名称"},
			"unit":{"type":"string","default":"C","description":"温度单位"}},
			"required":["city"]}`),
		func(ctx context.Context, params json.RawMessage) (*blade.ToolCallResponse, error) {
			var in struct{ City, Unit string }
			if err := json.Unmarshal(params, &in); err != nil {
				return nil, err
			}
			text := fmt.Sprintf("%s: 晴 25°%s (pid %v)", in.City, in.Unit, os.Getpid() == pid)
			return &blade.ToolCallResponse{Content: []blade.Content{{Type: "text", Text: text}}}, nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	handle, err := blade.CreateSDKMCPServer(ctx, blade.SDKServerOptions{Name: "my-tools", Version: "1.0.0", Tools: []*blade.SDKTool{weather}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("type:", handle.Type())
	s, err := blade.NewSession(ctx, blade.Options{
		MCPServers: []blade.NamedServer{{Name: "myTools", Config: handle.ServerConfig()}},
		Permission: &reference.Policy{Allow: []string{"mcp__*"}},
		Model: reference.ModelFunc(func(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
			if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
				fmt.Println("tool result:", last.Text)
				return reference.ModelResponse{Text: "done"}, nil
			}
			fmt.Println("offered:", req.Tools[len(req.Tools)-1].Name, req.Tools[len(req.Tools)-1].Description)
			call := reference.ToolCall{ID: "1", Name: "mcp__myTools__get-weather", Arguments: []byte(`{"city":"Paris"}`)}
			return reference.ModelResponse{ToolCalls: []reference.ToolCall{call}}, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	st := s.MCPServerStatus()[0]
	fmt.Println("status:", st.Name, st.Status, st.ToolCount)
	if _, err := s.Send(ctx, "weather in Paris?"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// type: in-process
	// status: myTools connected 1
	// offered: mcp__myTools__get-weather 查询指定城市的当前天气
	// tool result: {"content":[{"type":"text","text":"Paris: 晴 25°C (pid true)"}]}
}

// pid is this process's.
var pid = os.Getpid()
