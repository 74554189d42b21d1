import { useQueryClient } from '@tanstack/react-query';
import { api, type Team, updateTeamBody } from '@wharf/contract';
import { EntitySettings } from '../../components/EntitySettings.tsx';
import { call, upload } from '../../lib/api.ts';

/** The Settings tab of a team: its name and color, and its logo. */
export function TeamSettingsTab({ team }: { team: Team }) {
  const client = useQueryClient();
  const params = { teamId: team._id };
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [api.getTeam.path] }),
      client.invalidateQueries({ queryKey: [api.listTeams.path] }),
    ]);
  return (
    <EntitySettings
      entity={team}
      title="Team"
      colorDescription="Shown where the team has no logo"
      schema={updateTeamBody}
      save={(body) => call(api.updateTeam, { params, body })}
      savedMessage="Team saved"
      failedAction="update team"
      refresh={refresh}
      uploadLogo={(file) => upload(api.setTeamLogo, params, file)}
      removeLogo={() => call(api.removeTeamLogo, { params })}
    />
  );
}
