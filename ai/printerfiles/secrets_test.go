package printerfiles

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Real file shapes with made-up secrets: each case lists the secrets that
// must be gone and the lines that must stay exactly as they were.
func TestStripSecrets(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		gone    []string // secrets that must not survive
		kept    []string // lines that must stay as they are
		removed int
	}{
		{
			name: "moonraker.conf mqtt and power",
			in: `[server]
host: 0.0.0.0
port: 7125

[authorization]
trusted_clients:
    192.168.1.0/24
cors_domains:
    *.local

[mqtt]
address: 192.168.1.10
port: 1883
username: klipper_mqtt
password: Mq77-hunter2
mqtt_protocol: v3.1.1
enable_moonraker_api: True
instance_name: voron

[power printer]
type: homeassistant
address: 192.168.1.126
port: 8123
device: switch.printer_plug
token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.longlivedtoken123
domain: switch

[power light]
type: tasmota
address: 192.168.1.127
password: tasmotaPW9

[octoprint_compat]

[secrets]
secrets_path: ~/printer_data/moonraker.secrets
`,
			gone:    []string{"klipper_mqtt", "Mq77-hunter2", "longlivedtoken123", "tasmotaPW9"},
			kept:    []string{"address: 192.168.1.10", "port: 1883", "mqtt_protocol: v3.1.1", "device: switch.printer_plug", "secrets_path: ~/printer_data/moonraker.secrets", "type: tasmota"},
			removed: 4,
		},
		{
			name: "moonraker secrets template stays",
			in: `[mqtt]
address: broker.local
username: {secrets.mqtt_credentials.username}
password: {secrets.mqtt_credentials.password}
`,
			kept:    []string{"username: {secrets.mqtt_credentials.username}", "password: {secrets.mqtt_credentials.password}"},
			removed: 0,
		},
		{
			name: "wpa_supplicant.conf",
			in: `ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev
update_config=1
country=GB

network={
	ssid="HomeWifi"
	psk="correct horse battery staple"
	key_mgmt=WPA-PSK
}

network={
	ssid="Workshop"
	psk=0f3ab8a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d
}

network={
	ssid="Office"
	key_mgmt=WPA-EAP
	identity="maker@example.com"
	password="enterprisePW1"
	wep_key0="abcde"
}
`,
			gone:    []string{"correct horse", "0f3ab8a1b2c3d4e5", "enterprisePW1", "abcde"},
			kept:    []string{`	ssid="HomeWifi"`, "	key_mgmt=WPA-PSK", "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev", "country=GB"},
			removed: 4,
		},
		{
			name: "OctoPrint config.yaml",
			in: `accessControl:
  salt: qwErTy1234567890AbCdEfGhIjKlMnOp
api:
  key: 0123456789ABCDEF0123456789ABCDEF
  allowCrossOrigin: false
plugins:
  mqtt:
    broker:
      url: 192.168.1.5
      username: octo
      password: mqttpw
  octolapse:
    key: F
server:
  firstRun: false
  secretKey: aSdFgHjKl1234567890zXcV
  onlineCheck:
    enabled: true
webcam:
  stream: http://127.0.0.1:8080/?action=stream
`,
			gone:    []string{"qwErTy1234567890", "0123456789ABCDEF", "mqttpw", "aSdFgHjKl1234567890"},
			kept:    []string{"  allowCrossOrigin: false", "      url: 192.168.1.5", "      username: octo", "    key: F", "  stream: http://127.0.0.1:8080/?action=stream"},
			removed: 4,
		},
		{
			name: "klippy.log with a Moonraker URL holding a token",
			in: `Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg', '-l', '/home/pi/printer_data/logs/klippy.log', '-a', '/tmp/klippy_uds']
Git version: 'v0.12.0-85-gd785b396'
===== Config file =====
[mcu]
serial = /dev/serial/by-id/usb-Klipper_stm32f446xx_12345-if00

[extruder]
step_pin = PB3
rotation_distance = 22.6789511
nozzle_diameter = 0.400
heater_pin = PA2
sensor_type = EPCOS 100K B57560G104F
control = pid
pid_kp = 22.2
=======================
webhooks client 281473520541488: New connection
webhooks client 281473520541488: Client info {'program': 'Moonraker', 'version': 'v0.8.0-138-g39b8d8e'}
Stats 3456.7: gcodein=0  mcu: mcu_awake=0.004 mcu_task_avg=0.000011 bytes_write=1234 bytes_read=5678 print_time=12.3
Failed to fetch http://192.168.1.20:7125/server/files/gcodes/part.gcode?token=ab12cd34ef56ab12&path=gcodes
Transition to shutdown state: MCU 'mcu' shutdown: Timer too close
`,
			gone: []string{"ab12cd34ef56ab12"},
			kept: []string{"serial = /dev/serial/by-id/usb-Klipper_stm32f446xx_12345-if00", "rotation_distance = 22.6789511",
				"sensor_type = EPCOS 100K B57560G104F", "Transition to shutdown state: MCU 'mcu' shutdown: Timer too close",
				"Stats 3456.7: gcodein=0  mcu: mcu_awake=0.004 mcu_task_avg=0.000011 bytes_write=1234 bytes_read=5678 print_time=12.3"},
			removed: 1,
		},
		{
			name: "Marlin Configuration_adv.h",
			in: `//#define PASSWORD_FEATURE
#if ENABLED(PASSWORD_FEATURE)
  #define PASSWORD_LENGTH 4                 // (#) Number of digits (1-9). 3 or 4 is recommended
  #define PASSWORD_ON_STARTUP
#endif
#if ENABLED(WIFISUPPORT)
  #define WIFI_SSID "Workshop"
  #define WIFI_PWD  "s3cretWifi!"
#endif
#define DEFAULT_AXIS_STEPS_PER_UNIT   { 80, 80, 400, 93 }
`,
			gone:    []string{"s3cretWifi!"},
			kept:    []string{`  #define WIFI_SSID "Workshop"`, "  #define PASSWORD_LENGTH 4                 // (#) Number of digits (1-9). 3 or 4 is recommended", "#define DEFAULT_AXIS_STEPS_PER_UNIT   { 80, 80, 400, 93 }"},
			removed: 1,
		},
		{
			name: "M503 output has no secrets",
			in: `echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:; Maximum feedrates (units/s):
echo:  M203 X500.00 Y500.00 Z5.00 E25.00
echo:; PID settings:
echo:  M301 P21.73 I1.54 D76.55
echo:; Z-Probe Offset (mm):
echo:  M851 X-44.00 Y-6.00 Z-1.85
ok
`,
			kept:    []string{"echo:  M92 X80.00 Y80.00 Z400.00 E93.00", "echo:  M851 X-44.00 Y-6.00 Z-1.85"},
			removed: 0,
		},
		{
			name: "RepRapFirmware passwords in config.g and a host log",
			in: `M550 P"Voron Duet"                                 ; set printer name
M551 P"Duet-pw-4821"                              ; set machine password
m587 s"Workshop" p"wifi-S3cret!" ; join the workshop network
M589 S"DuetAP" P"apPass-77" I192.168.0.1
M552 S1                                            ; enable network
M586 P0 S1                                         ; enable HTTP
2024-05-01 10:00:00,123 - Send: N5 M551 Pplainpw9*45
3/2/2024, 4:02:11 PM	M587 S"Cafe" P"cafe pass 2"
`,
			gone:    []string{"Duet-pw-4821", "wifi-S3cret!", "apPass-77", "plainpw9", "cafe pass 2"},
			kept:    []string{`M550 P"Voron Duet"                                 ; set printer name`, "M586 P0 S1                                         ; enable HTTP"},
			removed: 5,
		},
		{
			name: "PrusaLink settings and Bambu access code",
			in: `[service::local]
enable = True
username = maker
password = 7hRb9cK2mYpQ
api_key = aBcDeFgHiJkLmNoP

[service::connect]
hostname = connect.prusa3d.com
token = 8a2b3c4d5e6f7a8b9c0d
{"dev_id": "01S00A123456789", "dev_access_code": "87654321", "dev_ip": "192.168.1.50"}
`,
			gone:    []string{"7hRb9cK2mYpQ", "aBcDeFgHiJkLmNoP", "8a2b3c4d5e6f7a8b9c0d", "87654321"},
			kept:    []string{"username = maker", "hostname = connect.prusa3d.com", "enable = True"},
			removed: 4,
		},
		{
			name: "headers, env, URLs and JSON",
			in: `export OCTOPRINT_API_KEY="ABCDEF0123456789ABCDEF"
MOONRAKER_TOKEN=tok3n-value
Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl
Authorization: Basic dXNlcjpwYXNzd29yZA==
connecting to mqtt://printer:hunter22@broker.local:1883 with headers={'X-Api-Key': 'FEDCBA9876543210'}
{"accessToken":"at-987654","refresh_token": "rt-123456", "user": "bob"}
GET /webcam/?action=snapshot&sig=deadbeefcafe HTTP/1.1
`,
			gone:    []string{"ABCDEF0123456789", "tok3n-value", "eyJhbGciOiJIUzI1NiJ9", "dXNlcjpwYXNzd29yZA", "hunter22", "FEDCBA9876543210", "at-987654", "rt-123456", "deadbeefcafe"},
			kept:    []string{},
			removed: 9,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, n := StripSecrets(c.in)
			if n != c.removed {
				t.Errorf("removed %d values, want %d\n%s", n, c.removed, out)
			}
			for _, s := range c.gone {
				if strings.Contains(out, s) {
					t.Errorf("%q survived:\n%s", s, out)
				}
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(out, "\n") {
				lines[l] = true
			}
			for _, k := range c.kept {
				if !lines[k] {
					t.Errorf("line %q changed or lost:\n%s", k, out)
				}
			}
			if again, m := StripSecrets(out); again != out || m != 0 {
				t.Errorf("second pass changed %d more:\n%s", m, again)
			}
		})
	}
}

// The exact output of the common shapes: the key, quotes and scheme stay.
func TestStripSecretsShapes(t *testing.T) {
	for in, want := range map[string]string{
		"password: abc":                          "password: [removed]",
		"  psk=\"my wifi pass\"":                 "  psk=\"[removed]\"",
		`"api_key": "xyz", "port": 80`:           `"api_key": "[removed]", "port": 80`,
		"Authorization: Bearer abcdefgh12345678": "Authorization: Bearer [removed]",
		"http://u:p4ss@host/x?token=t&a=1":       "http://u:[removed]@host/x?token=[removed]&a=1",
		"#define WIFI_PWD \"x\"":                 "#define WIFI_PWD \"[removed]\"",
		"password:":                              "password:",
		"password: [removed]":                    "password: [removed]",
		"access code: 12345678":                  "access code: [removed]",
		"pass=x&pass=y":                          "pass=[removed]",
		"a pass=x,pass=y":                        "a pass=[removed],pass=[removed]",
	} {
		if got, _ := StripSecrets(in); got != want {
			t.Errorf("StripSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStripSecretsInvalidUTF8(t *testing.T) {
	out, _ := StripSecrets("password: a\xffb\nok")
	if !utf8.ValidString(out) || strings.Contains(out, "a\uFFFDb") {
		t.Errorf("got %q", out)
	}
}

// FuzzStripSecrets: never panics, gives valid UTF-8, is idempotent and
// grows the text by at most len(Removed)-1 bytes per removed value.
func FuzzStripSecrets(f *testing.F) {
	for _, s := range []string{
		"password: abc", "[mqtt]\nusername: u\npassword: p", `{"token":"x","a":"b"}`, "psk=\"p\"",
		"http://a:b@c/?key=d&sig=e", "Authorization: Basic QUJD", "#define WIFI_PWD \"x\"", "api:\n  key: 0123456789abcdef0123",
		"Bearer abcdefghijkl", "a=b:c=d", "pass=x&pass=y,token:'z'", "'password': 'a\\'b'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, n := StripSecrets(in)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		again, m := StripSecrets(out)
		if again != out || m != 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if !utf8.ValidString(in) {
			return
		}
		if n < 0 || len(out) > len(in)+n*(len(Removed)-1) {
			t.Fatalf("%q grew to %q with %d removals", in, out, n)
		}
		if n > len(in)/3 {
			t.Fatalf("%d removals in %d bytes", n, len(in))
		}
		if n == 0 && out != in {
			t.Fatalf("changed without a removal: %q -> %q", in, out)
		}
	})
}

func BenchmarkStripSecrets(b *testing.B) {
	line := "password: abc token=1&key=2 http://u:p@h/?sig=3 Authorization: Bearer abcdefgh12345678 'api_key': 'x'\n"
	in := strings.Repeat(line, (256<<10)/len(line))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		StripSecrets(in)
	}
}
