import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddRounded from '@mui/icons-material/AddRounded';
import EditRounded from '@mui/icons-material/EditRounded';
import PrintRounded from '@mui/icons-material/PrintRounded';
import type { Printer } from '../../api/client';
import { TOOLTIP_ENTER_DELAY_MS } from '../../theme';
import { formatNozzle } from './printerValidation';
import type { PrinterHistory } from './history';
import { PrinterHistoryView } from './PrinterHistoryView';

interface Props {
  printer: Printer;
  history?: PrinterHistory;
  onEdit: () => void;
}

export function PrinterCard({ printer, history, onEdit }: Props) {
  return (
    <Card data-testid="printer-card" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flexGrow: 1, pb: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Box
            sx={{
              flexShrink: 0,
              width: 40,
              height: 40,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'rgba(234, 88, 12, 0.1)',
              color: 'primary.main',
            }}
          >
            <PrintRounded />
          </Box>
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {printer.name}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
              {printer.brand}
            </Typography>
          </Box>
          <Tooltip title="Edit printer" enterDelay={TOOLTIP_ENTER_DELAY_MS}>
            <IconButton aria-label={`Edit ${printer.name}`} onClick={onEdit} size="small" sx={{ mt: -0.5, mr: -0.5 }}>
              <EditRounded fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mt: 1.5 }}>
          <Typography variant="body2">
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Nozzle:{' '}
            </Box>
            {formatNozzle(printer.nozzleSize)}
          </Typography>
          {printer.buildVolume && (
            <Typography variant="body2">
              <Box component="span" sx={{ color: 'text.secondary' }}>
                Build volume:{' '}
              </Box>
              {printer.buildVolume} mm
            </Typography>
          )}
        </Stack>
        {history && <PrinterHistoryView history={history} />}
      </CardContent>
      <Box sx={{ px: 2, pb: 2 }}>
        <Button
          component={RouterLink}
          to={`/report-issue?printerId=${printer.id}`}
          variant="outlined"
          fullWidth
          startIcon={<AddRounded />}
        >
          New Issue
        </Button>
      </Box>
    </Card>
  );
}

export function AddPrinterCard({ onClick }: { onClick: () => void }) {
  return (
    <ButtonBase
      onClick={onClick}
      sx={{
        width: '100%',
        height: '100%',
        minHeight: 150,
        borderRadius: 2.5,
        border: '2px dashed',
        borderColor: 'divider',
        color: 'text.secondary',
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        '&:hover': { borderColor: 'primary.light', color: 'primary.main' },
        '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.light', outlineOffset: 2 },
      }}
    >
      <AddRounded sx={{ fontSize: 32 }} />
      <Typography sx={{ fontWeight: 700 }}>Add New Printer</Typography>
    </ButtonBase>
  );
}
