import { useState } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AttachFiles } from './AttachFiles';
import { detectKind, MAX_ATTACHMENT_BYTES, type Attachment } from './attachments';

const klippyLog = `Starting Klippy...
Args: ['/home/pi/klipper/klippy/klippy.py', '/home/pi/printer_data/config/printer.cfg']
Transition to shutdown state: MCU 'mcu' shutdown: ADC out of range
`;
const m503 = `echo:; Steps per unit:
echo:  M92 X80.00 Y80.00 Z400.00 E93.00
echo:  M301 P21.73 I1.54 D76.55
`;

let last: Attachment[] = [];

function Harness() {
  const [list, setList] = useState<Attachment[]>([]);
  return (
    <AttachFiles
      attachments={list}
      onChange={(l) => {
        last = l;
        setList(l);
      }}
    />
  );
}

function setup() {
  last = [];
  renderWithProviders(<Harness />);
  // Drops take any file; the picker offers .log .cfg .txt .h .g.
  return userEvent.setup({ applyAccept: false });
}

const chips = () => screen.queryAllByTestId('attachment-chip').map((c) => c.textContent);

describe('attach a log or config', { timeout: 20_000 }, () => {
  it('reads a picked file as text and shows its name, size and kind', async () => {
    const user = setup();
    expect(screen.getByRole('region', { name: 'Attach a log or config' })).toBeInTheDocument();
    expect(screen.getByTestId('attach-input')).toHaveAttribute('accept', '.log,.cfg,.txt,.h,.g');
    await user.upload(screen.getByTestId('attach-input'), new File([klippyLog], 'klippy.log'));
    await waitFor(() => expect(chips()).toEqual([`klippy.log · ${klippyLog.length} B · Klipper log`]));
    expect(last).toEqual([expect.objectContaining({ name: 'klippy.log', text: klippyLog, kind: 'klippy-log', bytes: klippyLog.length })]);
    expect(screen.getByText(`1 of 4 files, ${klippyLog.length} B of 256 KB`)).toBeInTheDocument();
    // The remove button is labelled and removes it.
    await user.click(screen.getByRole('button', { name: 'Remove klippy.log' }));
    expect(chips()).toEqual([]);
    expect(last).toEqual([]);
  });

  it('refuses binary and non-UTF-8 files, naming them', async () => {
    const user = setup();
    await user.upload(screen.getByTestId('attach-input'), [
      new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00])], 'firmware.bin'),
      new File([new Uint8Array([0x54, 0x65, 0x6d, 0x70, 0xb0, 0x43])], 'latin1.log'),
      new File([m503], 'M503.txt'),
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('firmware.bin looks like a binary file (a control character on line 1)');
    expect(alert).toHaveTextContent('latin1.log is not UTF-8 text');
    expect(chips()).toEqual([`M503.txt · ${m503.length} B · Marlin M503 settings`]);
  });

  it('keeps to 4 files and 256 KB of text in all', async () => {
    const user = setup();
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => new File([`Recv: ok T:210\n`], `${n}.log`));
    await user.upload(screen.getByTestId('attach-input'), files);
    await waitFor(() => expect(chips()).toHaveLength(4));
    expect(await screen.findByRole('alert')).toHaveTextContent('e.log was not added: you can attach at most 4 files');
    expect(screen.getByRole('button', { name: /Choose Files/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Paste Text/ })).toBeDisabled();
  });

  it('refuses a file over 256 KB and a second file that would pass the total', async () => {
    const user = setup();
    const big = 'x'.repeat(MAX_ATTACHMENT_BYTES + 1);
    await user.upload(screen.getByTestId('attach-input'), new File([big], 'huge.log'));
    expect(await screen.findByRole('alert')).toHaveTextContent('huge.log: Attachments can hold at most 256 KB of text in all; these have 257 KB.');
    expect(chips()).toEqual([]);
    const half = 'y'.repeat(150 * 1024);
    await user.upload(screen.getByTestId('attach-input'), new File([half], 'one.log'));
    await waitFor(() => expect(chips()).toHaveLength(1));
    await user.upload(screen.getByTestId('attach-input'), new File([half], 'two.log'));
    expect(await screen.findByRole('alert')).toHaveTextContent('two.log was not added: Attachments can hold at most 256 KB of text in all; these have 300 KB.');
    expect(chips()).toEqual(['one.log · 150 KB · Not recognised']);
  });

  it('takes pasted text under a chosen or typed name', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: /Paste Text/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Paste a log or settings' });
    await user.click(within(dialog).getByLabelText('Text'));
    await user.paste(m503);
    expect(within(dialog).getByLabelText('File name')).toHaveValue('M503.txt');
    await user.click(within(dialog).getByRole('button', { name: 'Attach' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(chips()).toEqual([`M503.txt · ${m503.length} B · Marlin M503 settings`]);
  });

  it('refuses a typed name with folders; a name from the list fixes it', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: /Paste Text/ }));
    const again = await screen.findByRole('dialog');
    await user.click(within(again).getByLabelText('Text'));
    await user.paste(klippyLog);
    await user.clear(within(again).getByLabelText('File name'));
    await user.paste('../logs/klippy.log');
    await user.click(within(again).getByRole('button', { name: 'Attach' }));
    expect(within(again).getByRole('alert')).toHaveTextContent('"../logs/klippy.log" is not a plain file name');
    await user.click(within(again).getByRole('button', { name: 'klippy.log' }));
    await user.click(within(again).getByRole('button', { name: 'Attach' }));
    await waitFor(() => expect(chips()).toEqual([`klippy.log · ${klippyLog.length} B · Klipper log`]));
  });

  it('opens the paste dialog with text pasted on the section', async () => {
    setup();
    fireEvent.paste(screen.getByRole('button', { name: /Paste Text/ }), { clipboardData: { files: [], getData: () => m503 } });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Text')).toHaveValue(m503);
  });
});

// The kinds mirror server/attachments.go (TestAttachmentKind), whose names are the analysis'.
describe('detectKind', () => {
  it.each([
    ['klippy.log', klippyLog, 'klippy-log'],
    ['printer.cfg', '[printer]\nkinematics: corexy\n[extruder]\nstep_pin: PB3\n', 'klipper-config'],
    ['M503.txt', m503, 'marlin-m503'],
    ['Configuration.h', '#define CONFIGURATION_H_VERSION 02010300\n#define TEMP_SENSOR_0 1\n', 'marlin-config'],
    ['Configuration.h', '// nothing recognisable\n', 'marlin-config'],
    ['config.g', '; Configuration file for Duet 3\nM584 X0.0 Y0.1 Z0.2 E0.3\nM92 X80 Y80\n', 'rrf-config'],
    ['m122.txt', '=== Diagnostics ===\nRepRapFirmware for Duet 3 MB6HC version 3.5.1\n', 'rrf-m122'],
    ['serial.log', 'Send: M105\nRecv: ok T:210.0 /210.0\nRecv: Error:Thermal Runaway, system stopped! Heater_ID: 0\n', 'marlin-serial'],
    ['support.txt', 'FIRMWARE_NAME:Prusa-Firmware 3.13.2 based on Marlin\n', 'prusa-support'],
    ['mainsail.txt', '10:17:55  !! Extrude below minimum temp\n10:17:56  $ M109 S210\n', 'klipper-console'],
    ['.config', '# Klipper Firmware Configuration\nCONFIG_MCU="stm32f103xe"\n', 'klipper-kconfig'],
    ['part.gcode', '; generated by PrusaSlicer 2.7.1\nG28\n', 'gcode'],
    ['moonraker.conf', '[mqtt]\naddress: 192.168.1.10\nusername: klipper_mqtt\npassword: Mq77-hunter2\n', 'moonraker-config'],
    ['tmc.txt', '[tmc2209 stepper_x]\nuart_pin: PC11\n', 'klipper-config'],
    ['up.txt', '[update_manager mainsail]\ntype: web\n', 'moonraker-config'],
    ['term.txt', 'Recv: echo:  M92 X80.00 Y80.00\n', 'marlin-serial'],
    ['notes.txt', 'the nozzle clicks on the first layer\n', 'unknown'],
    ['odd.txt', 'M5840 is no code\n[tmc22\n', 'unknown'],
  ])('%s is %s', (name, text, kind) => {
    expect(detectKind(name, text).kind).toBe(kind);
  });
});
